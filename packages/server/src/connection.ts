import { randomUUID } from 'node:crypto';
import { sleep } from '@hankweave/durable-io';
import type { RuntimePort } from '@hankweave/runtime';
import type { EventData, HankweaveEvent } from '@hankweave/types';
import type { RawData, WebSocket } from 'ws';
import { CLOSE_CODES } from './close-codes.js';
import { TokenBucket } from './rate-limiter.js';
import type { ServerMessage } from './server-message.js';
import type { ResolvedServerOptions } from './server-options.js';
import { type ErrorContext, errorEvent, type WireErrorCode } from './wire.js';

/** How many messages of one client may wait behind a slow command (e.g. a rollback). */
const MAX_QUEUED_MESSAGES = 1000;
/** ... and how many bytes they may hold, so a queue never costs more than a few messages. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** The longest refused message whose id and type are read for its answer's context. */
const MAX_PARSED_REFUSAL_CHARS = 4096;

/** What a connection needs from its server. */
export interface ConnectionHost {
  readonly runtime: RuntimePort;
  readonly options: ResolvedServerOptions;
  /** Logs a message in (parsed, with its `raw` text) or out to websocket.log (never throws). */
  logIn(message: unknown, raw?: string): void;
  logOut(message: unknown): void;
  /** The `server.ready` payload. */
  serverReady(): EventData<'server.ready'>;
  /** Sends a targeted message to every handshaken client (`ping.broadcast`). */
  sendToAll(message: ServerMessage): void;
  /** Called once when the connection is gone. */
  onClose(connection: Connection): void;
  /**
   * Runs a client's `handshake` message (`performHandshake`). The server hands the handlers in,
   * so this file imports neither and they can import its types without a cycle.
   */
  handshake(connection: Connection, message: unknown, context: ErrorContext): Promise<void>;
  /** Runs a client's command once it has a string id (`handleCommand`). */
  command(
    connection: Connection,
    message: { type: string; id: string; data?: unknown },
    context: ErrorContext,
  ): Promise<void>;
}

/** A client as `clients()` lists it. */
export interface ClientInfo {
  id: string;
  mode: 'readonly' | 'readandwrite' | undefined;
  handshaken: boolean;
  connectedAt: string;
  remoteAddress: string | undefined;
}

type ConnectionState = 'awaiting-handshake' | 'syncing' | 'live' | 'closed';

/**
 * One connection: the handshake, then this client's commands one at a time in arrival order (so
 * an error or a `pong` tells the client its earlier commands are done), and the events meant for
 * it. Sending never blocks: a client whose buffer passes `maxBufferedBytes` is closed with 4008.
 */
export class Connection {
  readonly id = `client_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  readonly connectedAt = new Date();
  mode: 'readonly' | 'readandwrite' | undefined;
  #state: ConnectionState = 'awaiting-handshake';
  /** Broadcasts that arrive while the handshake reads the journal; sent once it is done. */
  #pendingLive: Array<{ event: HankweaveEvent; payload: Buffer }> = [];
  #queue: Promise<void> = Promise.resolve();
  #queued = 0;
  #queuedBytes = 0;
  #bucket: TokenBucket;
  #lastRateNotice = Number.NEGATIVE_INFINITY;
  /** Refusals sent since the last one logged (websocket.log gets one a second). */
  #unloggedRefusals = 0;
  #fellBehind = false;
  #timers: NodeJS.Timeout[] = [];

  constructor(
    readonly socket: WebSocket,
    readonly host: ConnectionHost,
    readonly authenticated: boolean,
    readonly remoteAddress: string | undefined,
  ) {
    const { rateLimit, handshakeTimeoutMs } = host.options;
    this.#bucket = new TokenBucket(rateLimit.messagesPerSecond, rateLimit.burst);
    socket.on('message', (data) => this.#receive(data));
    socket.on('close', () => this.#closed());
    // Socket errors (resets, oversize frames) are followed by 'close'; nothing else to do.
    socket.on('error', () => undefined);
    this.#timer(handshakeTimeoutMs, () => {
      if (this.#state === 'awaiting-handshake')
        this.close(CLOSE_CODES.HANDSHAKE_TIMEOUT, 'No handshake received');
    });
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get info(): ClientInfo {
    return {
      id: this.id,
      mode: this.mode,
      handshaken: this.#state === 'live' || this.#state === 'syncing',
      connectedAt: this.connectedAt.toISOString(),
      remoteAddress: this.remoteAddress,
    };
  }

  /** Moves to `syncing`: broadcasts are held until {@link goLive}. */
  beginSync(mode: 'readonly' | 'readandwrite'): void {
    this.mode = mode;
    this.#state = 'syncing';
  }

  /** How many broadcasts are held while the handshake reads the journal. */
  get held(): number {
    return this.#pendingLive.length;
  }

  /**
   * Sends the held broadcasts, except those the journal held when the handshake read it
   * (`alreadyRead`), and goes live.
   */
  goLive(alreadyRead: ReadonlySet<string>): void {
    if (this.#state !== 'syncing') return;
    const pending = this.#pendingLive;
    this.#pendingLive = [];
    this.#state = 'live';
    for (const { event, payload } of pending) {
      if (!alreadyRead.has(event.id)) this.sendPayload(payload);
    }
  }

  /** A journaled event for every handshaken client; `payload` is serialised once by the server. */
  deliver(event: HankweaveEvent, payload: Buffer): void {
    if (this.#state === 'live') this.sendPayload(payload);
    else if (this.#state === 'syncing') this.#pendingLive.push({ event, payload });
  }

  /** Sends and logs a message meant for this client only. */
  send(message: ServerMessage, options: { paced?: boolean } = {}): boolean {
    if (!this.#open()) return false;
    this.host.logOut(message);
    return this.sendPayload(Buffer.from(JSON.stringify(message)), options);
  }

  /** Sends an `error` event to this client only. */
  sendError(code: WireErrorCode, message: string, context: ErrorContext = {}): void {
    this.send(errorEvent(code, message, context));
  }

  /**
   * Sends bytes unless the client is too far behind. `paced` sends (history batches) waited for
   * room already, so they may exceed the bound once rather than cut the client off mid-sync.
   */
  sendPayload(payload: Buffer, options: { paced?: boolean } = {}): boolean {
    if (!this.#open()) return false;
    if (
      !options.paced &&
      this.socket.bufferedAmount + payload.length > this.host.options.maxBufferedBytes
    ) {
      this.#fallBehind();
      return false;
    }
    this.socket.send(payload, { binary: false });
    return true;
  }

  /** Resolves true once the send buffer is under half its bound, false if the client left. */
  async waitForRoom(): Promise<boolean> {
    const limit = this.host.options.maxBufferedBytes / 2;
    while (this.#open() && this.socket.bufferedAmount > limit) {
      await sleep(10);
    }
    return this.#open();
  }

  /** Closes the connection with a code and a short reason. */
  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.CLOSED) return;
    this.socket.close(code, reason);
    // A peer that never answers the close frame must not keep the socket forever.
    this.#timer(this.host.options.closeGraceMs, () => this.socket.terminate());
  }

  /** Cuts the connection at once (server shutdown after its grace period). */
  terminate(): void {
    this.socket.terminate();
  }

  #open(): boolean {
    return (
      this.#state !== 'closed' && !this.#fellBehind && this.socket.readyState === this.socket.OPEN
    );
  }

  #fallBehind(): void {
    this.#fellBehind = true;
    this.#pendingLive = [];
    this.host.runtime.log.warn(
      `WebSocket client ${this.id} fell more than ${this.host.options.maxBufferedBytes} bytes behind: closing it (${CLOSE_CODES.TOO_FAR_BEHIND})`,
    );
    this.close(CLOSE_CODES.TOO_FAR_BEHIND, 'Too far behind: reconnect and send history.sync');
  }

  #receive(data: RawData): void {
    if (this.#state === 'closed') return;
    const text = rawText(data);
    const bytes = text.length;
    const allowed = this.#bucket.take();
    if (
      this.#queued >= MAX_QUEUED_MESSAGES ||
      (allowed && this.#queuedBytes + bytes > MAX_QUEUED_BYTES)
    ) {
      // The queue is full (a slow command and a flood behind it): answered at once, out of turn,
      // because waiting in line is what there is no room for.
      this.#refuse(text, 'Too many commands waiting: this message was not run');
      return;
    }
    // A message over the rate limit is not run but still gets its own answer, in its turn: every
    // message gets exactly one answer (issue 17), so a client can count them.
    const handle = allowed
      ? () => this.#handle(text)
      : this.#refusal(text, 'Too many messages: this message was not run; slow down');
    this.#queued++;
    this.#queuedBytes += allowed ? bytes : 0;
    this.#queue = this.#queue
      .then(handle)
      .catch((error) => this.sendError('RUNTIME_INTERNAL', `Command execution failed: ${error}`))
      .finally(() => {
        this.#queued--;
        this.#queuedBytes -= allowed ? bytes : 0;
      });
  }

  /** Sends a message's `RATE_LIMITED` answer now. */
  #refuse(text: string, reason: string): void {
    this.#refusal(text, reason)();
  }

  /**
   * The `RATE_LIMITED` answer of a message that is not run, ready to send. Its context is read now
   * (only from a short message: a flood must not cost a parse of 1 MB each), so the queue holds a
   * small closure rather than the text. websocket.log gets one refusal a second at most, and
   * counts the others in the next one it gets: a flood must not become a flood of disk writes.
   */
  #refusal(text: string, reason: string): () => void {
    const context = text.length <= MAX_PARSED_REFUSAL_CHARS ? contextOfText(text) : {};
    return () => {
      const event = errorEvent('RATE_LIMITED', reason, context);
      const now = performance.now();
      if (now - this.#lastRateNotice < 1000) {
        this.#unloggedRefusals++;
        this.sendPayload(Buffer.from(JSON.stringify(event)));
        return;
      }
      this.#lastRateNotice = now;
      if (this.#unloggedRefusals > 0)
        this.host.logOut({ refusedUnlogged: this.#unloggedRefusals, clientId: this.id });
      this.#unloggedRefusals = 0;
      this.send(event);
    };
  }

  async #handle(text: string): Promise<void> {
    if (this.#state === 'closed') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.host.logIn(text);
      this.sendError('INVALID_JSON', 'Invalid command format: the message is not JSON');
      return;
    }
    this.host.logIn(redactToken(message), text);
    if (!isObject(message)) {
      this.sendError('INVALID_COMMAND', 'Invalid command format: expected {id, type, data?}');
      return;
    }
    const context = contextOf(message);
    if (typeof message.type !== 'string') {
      this.sendError(
        'INVALID_COMMAND',
        'Invalid command format: expected {id, type, data?} with a string type',
        context,
      );
      return;
    }
    if (message.type === 'handshake') {
      // The handshake is not a command: its id is optional (reference §3.1).
      if (this.#state === 'awaiting-handshake') await this.host.handshake(this, message, context);
      else this.sendError('ALREADY_HANDSHAKEN', 'This connection already has a handshake', context);
      return;
    }
    if (context.commandId === undefined) {
      // Checked before anything else looks at the command: without an id a client cannot match
      // the answer to it, so it must not run (the in-process API may leave it out, the wire not).
      this.sendError(
        'INVALID_COMMAND',
        `Invalid command: a command needs a string id (a non-empty string); ${context.commandType} was not run`,
        context,
      );
      return;
    }
    await this.host.command(
      this,
      { ...message, type: message.type, id: context.commandId },
      context,
    );
  }

  #closed(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#pendingLive = [];
    for (const timer of this.#timers) clearTimeout(timer);
    this.host.onClose(this);
  }

  #timer(ms: number, run: () => void): void {
    const timer = setTimeout(run, ms);
    timer.unref();
    this.#timers.push(timer);
  }
}

/** A JSON object (not an array): the least a command or a handshake must be. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How much of an unknown `type` an error event repeats. */
const MAX_ECHOED_TYPE = 100;

/**
 * The error context of a message: its id when it is a valid one (a non-empty string) and its
 * type when it is a string, so a client can match the answer to what it sent.
 */
function contextOf(message: Record<string, unknown>): ErrorContext {
  const context: ErrorContext = {};
  if (isCommandId(message.id)) context.commandId = message.id;
  if (typeof message.type === 'string')
    context.commandType = message.type.slice(0, MAX_ECHOED_TYPE);
  return context;
}

/** The context of a raw message, or none when it is not a JSON object. */
function contextOfText(text: string): ErrorContext {
  try {
    const message: unknown = JSON.parse(text);
    return isObject(message) ? contextOf(message) : {};
  } catch {
    return {};
  }
}

/** What the wire accepts as a command id: a non-empty string (the schema's `id`). */
function isCommandId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The handshake's token must not end up in websocket.log (a file any local tool may read). */
function redactToken(message: unknown): unknown {
  if (!isObject(message) || message.type !== 'handshake') return message;
  const data = message.data as { token?: unknown } | null | undefined;
  if (typeof data !== 'object' || data === null || typeof data.token !== 'string') return message;
  return { ...message, data: { ...data, token: '[redacted]' } };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

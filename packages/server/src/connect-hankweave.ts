import type { ClientCommand, EventData, HankweaveEvent } from '@hankweave/types';
import WebSocket from 'ws';
import type { ServerMessage } from './server-message.js';

/**
 * A command as a client sends it: any protocol command, its `id` optional (the client adds one).
 * The runtime's `RuntimeCommand` has this shape; it is spelled here from `@hankweave/types` so the
 * client entry needs nothing of the runtime, and `client-command.test.ts` keeps the two equal.
 */
export type ClientCommandInput = ClientCommand extends infer C
  ? C extends { id: string }
    ? Omit<C, 'id'> & { id?: string }
    : never
  : never;

/** Options of {@link connectHankweave}. */
export interface ConnectOptions {
  /** The execution's token (`runtime.lock`). */
  token?: string;
  /** Default `readonly`. */
  mode?: 'readonly' | 'readandwrite';
  /** Ask for the last 50 journaled events in the handshake response. */
  sendPreviousEvents?: boolean;
  /**
   * Where the token travels: the `Authorization` header at the upgrade (default; a wrong token is
   * refused before any WebSocket exists) or the handshake message.
   */
  tokenIn?: 'header' | 'handshake';
  /** Extra upgrade headers (tests use `origin`). */
  headers?: Record<string, string>;
  /** Give up connecting after this long. Default 10 s. */
  timeoutMs?: number;
  /**
   * Receives every event after the handshake response, `server.ready` included, from the very
   * first one (a listener added with `on()` after `connect` resolves may miss the first events).
   */
  onEvent?: (event: HankweaveEvent) => void;
}

/** The handshake reply. */
export type HandshakeResult = Extract<ServerMessage, { type: 'handshake.response' }>['data'];

/** How the connection ended. */
export interface CloseInfo {
  code: number;
  reason: string;
}

/** A connected, handshaken client. */
export interface HankweaveClient {
  readonly handshake: HandshakeResult;
  /** The `server.ready` payload (it always follows the handshake response). */
  readonly ready: EventData<'server.ready'>;
  /** Every event after the handshake response (journaled and targeted), in arrival order. */
  on(listener: (event: HankweaveEvent) => void): () => void;
  /** The same events as an async iterator, buffered from the moment it is called; ends on close. */
  events(): AsyncIterableIterator<HankweaveEvent>;
  /** Resolves with the first event from now on that matches, or rejects after `timeoutMs`. */
  waitFor(
    predicate: (event: HankweaveEvent) => boolean,
    timeoutMs?: number,
  ): Promise<HankweaveEvent>;
  /**
   * Sends a command and resolves once the server has handled it: with the `error` event it caused
   * (`RATE_LIMITED` when it was over the rate limit), or undefined. (The server answers a client's
   * messages in order, so the answer to a `ping` sent right after marks the end.) Rejects if the
   * connection closes first.
   */
  send(command: ClientCommandInput): Promise<HankweaveEvent<'error'> | undefined>;
  /** Sends raw text (tests of malformed input). */
  sendRaw(text: string): void;
  /** Streams the whole journal (`history.sync`) and resolves with its events, in order. */
  historySync(): Promise<HankweaveEvent[]>;
  /** Resolves when the connection has closed. */
  readonly closed: Promise<CloseInfo>;
  close(code?: number, reason?: string): Promise<CloseInfo>;
}

/**
 * Connects to a runtime's WebSocket server and completes the handshake.
 * @throws {Error} when the upgrade is refused (the HTTP status is in the message), the handshake
 *   gets an error (its `code` is on the error), or nothing answers within `timeoutMs`.
 */
export async function connectHankweave(
  url: string,
  options: ConnectOptions = {},
): Promise<HankweaveClient> {
  const tokenIn = options.tokenIn ?? 'header';
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined && tokenIn === 'header')
    headers.authorization = `Bearer ${options.token}`;
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  const listeners = new Set<(event: HankweaveEvent) => void>();
  if (options.onEvent) listeners.add(options.onEvent);
  let sequence = 0;
  let handshaken = false;
  let resolveReady: (data: EventData<'server.ready'>) => void = () => undefined;
  const ready = new Promise<EventData<'server.ready'>>((done) => {
    resolveReady = done;
  });
  // Installed before the handshake: `ws` may emit several messages of one chunk in one tick.
  socket.on('message', (data) => {
    if (!handshaken) return;
    const message = JSON.parse(data.toString()) as HankweaveEvent;
    if (message.type === 'server.ready') resolveReady(message.data);
    for (const listener of [...listeners]) listener(message);
  });
  const closed = new Promise<CloseInfo>((done) => {
    socket.on('close', (code, reason) => done({ code, reason: reason.toString() }));
  });
  socket.on('error', () => undefined);

  const handshake = await new Promise<HandshakeResult>((done, fail) => {
    const timer = setTimeout(() => {
      socket.terminate();
      fail(new Error(`No handshake response from ${url}`));
    }, options.timeoutMs ?? 10_000);
    const finish = (error?: Error, result?: HandshakeResult) => {
      clearTimeout(timer);
      if (error) fail(error);
      else done(result as HandshakeResult);
    };
    socket.once('unexpected-response', (_request, response) => {
      finish(
        Object.assign(new Error(`Upgrade refused: HTTP ${response.statusCode}`), {
          status: response.statusCode,
        }),
      );
      socket.terminate();
    });
    socket.once('error', (error) => finish(error));
    void closed.then(({ code, reason }) =>
      finish(new Error(`Closed during handshake: ${code} ${reason}`)),
    );
    socket.once('open', () => {
      socket.send(
        JSON.stringify({
          type: 'handshake',
          data: {
            mode: options.mode ?? 'readonly',
            sendPreviousEvents: options.sendPreviousEvents ?? false,
            ...(options.token !== undefined && tokenIn === 'handshake'
              ? { token: options.token }
              : {}),
          },
        }),
      );
    });
    socket.on('message', function first(data) {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'handshake.response') {
        socket.off('message', first);
        handshaken = true;
        finish(undefined, message.data);
      } else if (message.type === 'error') {
        finish(Object.assign(new Error(message.data.message), { code: message.data.code }));
      }
    });
  });

  const readyData = await Promise.race([
    ready,
    closed.then(({ code, reason }) => {
      throw new Error(`Closed before server.ready: ${code} ${reason}`);
    }),
  ]);
  const on = (listener: (event: HankweaveEvent) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const waitFor = (predicate: (event: HankweaveEvent) => boolean, timeoutMs = 30_000) =>
    new Promise<HankweaveEvent>((done, fail) => {
      const timer = setTimeout(() => {
        off();
        fail(new Error(`No matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      const off = on((event) => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        off();
        done(event);
      });
      void closed.then(({ code }) => {
        clearTimeout(timer);
        off();
        fail(new Error(`Connection closed (${code}) while waiting`));
      });
    });

  let historyChain: Promise<unknown> = Promise.resolve();
  const client: HankweaveClient = {
    handshake,
    ready: readyData,
    on,
    events: () => iterate(on, closed),
    waitFor,
    sendRaw: (text) => socket.send(text),
    async send(command) {
      // Every command carries an id (the server refuses one without); an empty one would be refused.
      const id = command.id || `cmd_${++sequence}`;
      const pingId = `ack_${++sequence}`;
      let error: HankweaveEvent<'error'> | undefined;
      const off = on((event) => {
        if (
          event.type === 'error' &&
          (event.data.context as { commandId?: string })?.commandId === id
        )
          error ??= event;
      });
      // The ack is the ping's pong, or its own refusal (RATE_LIMITED): answers come in order, so
      // either one marks the end of the command's.
      const acked = waitFor(
        (event) =>
          (event.type === 'pong' && (event.data as { replyTo?: string }).replyTo === pingId) ||
          (event.type === 'error' &&
            (event.data.context as { commandId?: string })?.commandId === pingId),
        10 * 60_000,
      );
      socket.send(JSON.stringify({ ...command, id }));
      socket.send(JSON.stringify({ id: pingId, type: 'ping' }));
      try {
        await acked;
        return error;
      } finally {
        off();
      }
    },
    historySync() {
      const run = historyChain.then(async () => {
        const collected: HankweaveEvent[] = [];
        const done = new Promise<void>((finish, fail) => {
          const off = on((event) => {
            if (event.type === 'history.batch') {
              collected.push(...(event.data.events as HankweaveEvent[]));
              if (!event.data.hasMore) {
                off();
                finish();
              }
            } else if (
              event.type === 'error' &&
              (event.data.context as { commandType?: string })?.commandType === 'history.sync'
            ) {
              off();
              fail(Object.assign(new Error(event.data.message), { code: event.data.code }));
            }
          });
          void closed.then(({ code }) =>
            fail(new Error(`Connection closed (${code}) during history.sync`)),
          );
        });
        socket.send(JSON.stringify({ id: `sync_${++sequence}`, type: 'history.sync' }));
        await done;
        return collected;
      });
      historyChain = run.catch(() => undefined);
      return run;
    },
    closed,
    close(code = 1000, reason = 'client closing') {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
        socket.close(code, reason);
      return closed;
    },
  };
  return client;
}

async function* iterate(
  on: (listener: (event: HankweaveEvent) => void) => () => void,
  closed: Promise<CloseInfo>,
): AsyncIterableIterator<HankweaveEvent> {
  const buffered: HankweaveEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const off = on((event) => {
    buffered.push(event);
    wake?.();
  });
  void closed.then(() => {
    ended = true;
    wake?.();
  });
  try {
    for (;;) {
      const next = buffered.shift();
      if (next) yield next;
      else if (ended) return;
      else await new Promise<void>((resume) => (wake = resume));
    }
  } finally {
    off();
  }
}

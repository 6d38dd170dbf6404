import type { IncomingMessage, ServerResponse } from 'node:http';
import { liveLock } from '@hankweave/inspection';
import { connectHankweave, type HankweaveClient } from '@hankweave/server/client';
import { type HankweaveEvent, isJournaledEvent, type RuntimeLock } from '@hankweave/types';
import { executionStatus } from '../derive/execution-summary.js';
import { journalCursorOf } from '../events/event-pages.js';
import type { ExecutionCatalog, OpenJournal } from '../execution-catalog.js';
import { writeHead } from '../http/answers.js';
import { executionDetail } from './executions.js';

/** How often the journal is polled when no WebSocket is there to relay (and the lock checked). */
export const LIVE_POLL_MS = 300;
/** The first wait before reading again for an announced event a read did not find. */
const FIRST_RETRY_MS = 20;
const KEEPALIVE_MS = 15_000;
const STATE_DEBOUNCE_MS = 150;
const READ_BATCH = 500;

/** State transitions after which the timeline changes: codons and runs, not cost ticks. */
const TIMELINE_TRANSITIONS =
  /^(Run|Codon(Started|Transitioned|FinalCostSet)|ExecutionPlan|Checkpoint)/;

/** Whether an event changes what the timeline shows (a fresh `state` message follows it). */
export function changesTimeline(event: HankweaveEvent): boolean {
  if (event.type === 'state.transition')
    return TIMELINE_TRANSITIONS.test(event.data.transitionType);
  return (
    event.type === 'codon.started' ||
    event.type === 'codon.completed' ||
    event.type === 'codon.extended' ||
    event.type === 'rollback.completed' ||
    event.type === 'loop.iteration.completed'
  );
}

/** Waits `ms`, or less when `signal` aborts. */
function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Reads one execution's journal on from a cursor, relaying each event once and in order. Reads
 * are serialized: asking while one runs queues one more, which sees everything the asker saw.
 * Until the journal exists (a run that has just started) a read finds nothing and moves nothing.
 */
class JournalFollower {
  #chain: Promise<void> = Promise.resolve();
  #queued = false;
  #failure: unknown;
  /**
   * The newest journaled event the WebSocket announced that no read has found yet. The runtime
   * starts an event's append before it broadcasts it, but the append lands a moment later (the
   * journal writes in batches): a read woken by the message may miss it, and while the agent is
   * quiet (a long tool call) no other message would wake another read.
   */
  #announced: string | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryDelay = FIRST_RETRY_MS;

  constructor(
    private opened: OpenJournal | undefined,
    /** Where the next read starts; undefined is the journal's beginning. */
    private cursor: string | undefined,
    private readonly openLater: () => Promise<OpenJournal | undefined>,
    private readonly relay: (event: HankweaveEvent) => void,
    private readonly signal: AbortSignal,
  ) {}

  /** Reads to the journal's current end; rejects with the first read error. */
  async read(): Promise<void> {
    if (!this.#queued) {
      this.#queued = true;
      this.#chain = this.#chain
        .then(() => {
          this.#queued = false;
          return this.#readOnce();
        })
        .catch((error: unknown) => {
          this.#failure ??= error;
        });
    }
    await this.#chain;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * A read that nobody awaits (a WebSocket message, `event`): its error surfaces at the next
   * `read`. Reads again, sooner at first, until one has found the announced event.
   */
  wake(event?: HankweaveEvent): void {
    if (event !== undefined && isJournaledEvent(event)) {
      this.#announced = event.id;
      this.#retryDelay = FIRST_RETRY_MS;
    }
    this.read().then(
      () => this.#readAgainIfMissed(),
      () => undefined,
    );
  }

  /** Stops reading again for a missed event (the stream is closing). */
  stop(): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  #readAgainIfMissed(): void {
    if (this.#announced === undefined || this.#retry !== undefined || this.signal.aborted) return;
    const delay = this.#retryDelay;
    this.#retryDelay = Math.min(delay * 2, LIVE_POLL_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.wake();
    }, delay);
  }

  /** Reads every {@link LIVE_POLL_MS} ms until the runtime releases the lock, then once more. */
  async tail(dir: string): Promise<void> {
    while (!this.signal.aborted) {
      await this.read();
      if (!(await liveLock(dir))) break;
      await sleepFor(LIVE_POLL_MS, this.signal);
    }
    // A last read: what the runtime wrote just before it released the lock.
    await this.read();
  }

  async #readOnce(): Promise<void> {
    this.opened ??= await this.openLater();
    if (!this.opened) return;
    while (!this.signal.aborted) {
      const page = await this.opened.journal.getEventsAfter(this.cursor, READ_BATCH);
      for (const event of page.events) {
        if (event.id === this.#announced) this.#announced = undefined;
        this.relay(event);
      }
      this.cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
  }
}

/**
 * `GET /api/executions/:id/live[?after=cursor]`: server-sent events. First a `state` (an
 * `ExecutionDetail`); then, while a runtime holds the lock, `hankweave` events (one
 * `HankweaveEvent` each, in journal order, from `after` when given, else from now) and a fresh
 * `state` after each codon or run change; `end` (`{status}`) once the lock is released, and the
 * stream closes (a client should close its EventSource on `end`, else it reconnects and gets
 * `state` and `end` again). Events are read from the journal, so only journaled ones are sent:
 * each message of the runtime's WebSocket (followed as a read-only client when runtime.lock names
 * a port and token; the token never leaves this process) wakes a read, else the journal is
 * polled every {@link LIVE_POLL_MS} ms.
 */
export async function streamLive(
  catalog: ExecutionCatalog,
  id: string,
  request: IncomingMessage,
  response: ServerResponse,
  stopping: AbortSignal,
  after: string | undefined,
): Promise<void> {
  const facts = await catalog.facts(id);
  // Opened before the answer starts, so a bad cursor is still a plain 400.
  const opened = await catalog.journal(id).catch(() => undefined);
  const start = after && opened ? await journalCursorOf(opened.index, after) : undefined;
  writeHead(response, 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const gone = new AbortController();
  const stop = () => gone.abort();
  request.on('close', stop);
  stopping.addEventListener('abort', stop, { once: true });
  const send = (name: string, data: unknown) => {
    if (!gone.signal.aborted) response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
  let pending: NodeJS.Timeout | undefined;
  const scheduleState = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      catalog.facts(id).then(
        (fresh) => send('state', executionDetail(fresh)),
        () => undefined,
      );
    }, STATE_DEBOUNCE_MS);
  };
  const relay = (event: HankweaveEvent) => {
    if (!isJournaledEvent(event)) return;
    send('hankweave', event);
    if (changesTimeline(event)) scheduleState();
  };
  try {
    send('state', executionDetail(facts));
    if (facts.lock) {
      // From `after` when given, else from now; a journal that is not there yet is read from
      // its beginning once it is (every event in it came after this request).
      const from = after || !opened ? start : await journalCursorOf(opened.index, undefined);
      const follower = new JournalFollower(
        opened,
        from,
        () => journalOnceThere(catalog, id),
        relay,
        gone.signal,
      );
      const client = await followWebSocket(
        facts.lock,
        (event) => follower.wake(event),
        gone.signal,
      );
      if (client) {
        await follower.read();
        await untilClosed(client, facts.dir, gone.signal);
      }
      follower.stop();
      // No WebSocket, or it closed while the runtime still holds the lock: poll the journal.
      if (!gone.signal.aborted) await follower.tail(facts.dir);
    }
    if (gone.signal.aborted) return;
    clearTimeout(pending);
    const final = await catalog.facts(id);
    send('state', executionDetail(final));
    send('end', { status: executionStatus(final.state, final.lock !== undefined) });
  } finally {
    clearInterval(keepalive);
    clearTimeout(pending);
    request.off('close', stop);
    stopping.removeEventListener('abort', stop);
    response.end();
  }
}

/**
 * Connects to the runtime's WebSocket as a read-only client; each message it sends calls `wake`.
 * Its messages only say when to read: the tail shows journaled events only, in journal order
 * (not the server's targeted messages to this connection, such as its shutdown notice), and a
 * journaled event may reach the journal file a moment after its message (the follower reads
 * again until it is there). Undefined when the runtime serves no WebSocket or refuses us.
 */
async function followWebSocket(
  lock: RuntimeLock,
  wake: (event: HankweaveEvent) => void,
  signal: AbortSignal,
): Promise<HankweaveClient | undefined> {
  if (lock.port === undefined || lock.token === undefined || signal.aborted) return undefined;
  return connectHankweave(`ws://${lock.host ?? '127.0.0.1'}:${lock.port}/ws`, {
    token: lock.token,
    mode: 'readonly',
    timeoutMs: 5_000,
    onEvent: wake,
  }).catch(() => undefined);
}

/** Waits for the runtime to close the connection (it does when the run ends), or for `signal`. */
async function untilClosed(
  client: HankweaveClient,
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const aborted = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  await Promise.race([client.closed, aborted]);
  await client.close(1000, 'dashboard closed');
  // The runtime closes its clients before it releases runtime.lock: wait for the release (a
  // runtime that lost only its WebSocket keeps the lock fresh, and is followed by the journal).
  const deadline = Date.now() + 5_000;
  while (!signal.aborted && (await liveLock(dir)) && Date.now() < deadline)
    await sleepFor(100, signal);
}

/** The journal of a run that has just started, or undefined while it does not exist yet. */
function journalOnceThere(catalog: ExecutionCatalog, id: string): Promise<OpenJournal | undefined> {
  return catalog.journal(id).catch(() => undefined);
}

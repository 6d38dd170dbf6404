import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectHankweave, type HankweaveClient } from '@hankweave/runtime';
import { type HankweaveEvent, isJournaledEvent, type RuntimeLock } from '@hankweave/types';
import { liveLock } from '../../execution/find-execution.js';
import { executionStatus } from '../derive/execution-summary.js';
import { journalCursorOf } from '../events/event-pages.js';
import type { ExecutionCatalog, OpenJournal } from '../execution-catalog.js';
import { writeHead } from '../http/answers.js';
import { executionDetail } from './executions.js';

/** How often the journal is polled when no WebSocket is there to relay (and the lock checked). */
export const LIVE_POLL_MS = 300;
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

/** Reads the journal from `cursor` to its current end; resolves with the cursor after it. */
async function readOn(
  opened: OpenJournal,
  cursor: string | undefined,
  relay: (event: HankweaveEvent) => void,
  signal: AbortSignal,
): Promise<string | undefined> {
  let next = cursor;
  while (!signal.aborted) {
    const page = await opened.journal.getEventsAfter(next, READ_BATCH);
    for (const event of page.events) relay(event);
    next = page.nextCursor;
    if (!page.hasMore) break;
  }
  return next;
}

/**
 * `GET /api/executions/:id/live[?after=cursor]`: server-sent events. First a `state` (an
 * `ExecutionDetail`); then, while a runtime holds the lock, `hankweave` events (one
 * `HankweaveEvent` each, in journal order, from `after` when given, else from now) and a fresh
 * `state` after each codon or run change; `end` (`{status}`) once the lock is released, and the
 * stream closes (a client should close its EventSource on `end`, else it reconnects and gets
 * `state` and `end` again). Events come from the runtime's WebSocket as a read-only client when
 * runtime.lock names a port and token (the token never leaves this process), else from the
 * journal, polled every {@link LIVE_POLL_MS} ms.
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
      const client = await relayWebSocket(
        facts.lock,
        opened,
        start,
        after !== undefined,
        relay,
        gone.signal,
      );
      if (client) await untilClosed(client, facts.dir, gone.signal);
      // No WebSocket, or it closed while the runtime still holds the lock: follow the journal.
      if (!gone.signal.aborted && (await liveLock(facts.dir))) {
        const journal = opened ?? (await journalOnceThere(catalog, id, facts.dir, gone.signal));
        if (journal) {
          const resume = opened && after && !client;
          const from = resume ? start : await journalCursorOf(journal.index, undefined);
          await tailJournal(journal, from, facts.dir, relay, gone.signal);
        }
      }
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
 * Connects to the runtime's WebSocket as a read-only client and relays its events. With a start
 * cursor, the journal from there is sent first while live events wait in a buffer; then the
 * buffer is flushed without the events the journal already gave (the runtime journals an event
 * before it broadcasts it). Undefined when the runtime serves no WebSocket or refuses us.
 */
async function relayWebSocket(
  lock: RuntimeLock,
  opened: OpenJournal | undefined,
  start: string | undefined,
  replay: boolean,
  relay: (event: HankweaveEvent) => void,
  signal: AbortSignal,
): Promise<HankweaveClient | undefined> {
  if (lock.port === undefined || lock.token === undefined) return undefined;
  let buffer: HankweaveEvent[] | undefined = replay && opened ? [] : undefined;
  const client = await connectHankweave(`ws://${lock.host ?? '127.0.0.1'}:${lock.port}/ws`, {
    token: lock.token,
    mode: 'readonly',
    timeoutMs: 5_000,
    onEvent: (event) => (buffer ? buffer.push(event) : relay(event)),
  }).catch(() => undefined);
  if (!client || !buffer || !opened) return client;
  const replayed = new Set<string>();
  await readOn(
    opened,
    start,
    (event) => {
      replayed.add(event.id);
      relay(event);
    },
    signal,
  );
  const waiting = buffer;
  buffer = undefined;
  for (const event of waiting) if (!replayed.has(event.id)) relay(event);
  return client;
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

/** The journal of a run that has just started, once it exists; undefined if the run ends first. */
async function journalOnceThere(
  catalog: ExecutionCatalog,
  id: string,
  dir: string,
  signal: AbortSignal,
): Promise<OpenJournal | undefined> {
  while (!signal.aborted) {
    const opened = await catalog.journal(id).catch(() => undefined);
    if (opened) return opened;
    if (!(await liveLock(dir))) return undefined;
    await sleepFor(LIVE_POLL_MS, signal);
  }
  return undefined;
}

/** Follows the journal from `cursor` (polling `getEventsAfter`) until the lock is released. */
async function tailJournal(
  opened: OpenJournal,
  cursor: string | undefined,
  dir: string,
  relay: (event: HankweaveEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let next = cursor;
  while (!signal.aborted) {
    next = await readOn(opened, next, relay, signal);
    if (!(await liveLock(dir))) {
      // A last read: what the runtime wrote just before it released the lock.
      await readOn(opened, next, relay, signal);
      return;
    }
    await sleepFor(LIVE_POLL_MS, signal);
  }
}

import type { Readable } from 'node:stream';
import {
  createEventId,
  type HankweaveEvent,
  isConnectionStateEvent,
  isJournaledEvent,
  type NewEvent,
  newEventSchema,
} from '@hankweave/types';
import { MemoryEventStorage } from './backends/memory/memory-event-storage.js';
import { JournalError } from './errors.js';
import type { EventPage, JournalBackend, JournalStats, RecentEvents } from './journal-backend.js';

/**
 * The event journal (seed 003 "Querying the Journal"): validates and orders appends, assigns
 * `evt_` ids, and answers queries through a {@link JournalBackend}. Without a backend it keeps
 * events in memory (`MemoryEventStorage`, 100 events), as the original runtime did.
 */
export class EventJournal {
  /** The storage behind this journal. */
  readonly backend: JournalBackend;
  #initialized: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(backend: JournalBackend = new MemoryEventStorage()) {
    this.backend = backend;
  }

  /**
   * Opens the backend (the factories do it for you). Idempotent.
   * @throws {JournalError} JOURNAL_OPEN_FAILED when the storage cannot be opened.
   */
  initialize(): Promise<void> {
    this.#initialized ??= this.backend.initialize();
    return this.#initialized;
  }

  /**
   * Validates an event, gives it an `evt_` id if it has none, and appends it after every event
   * appended before (also when callers do not await each other). Resolves with the stored event
   * once the backend acknowledges it (README "Durability").
   * @throws {JournalError} JOURNAL_INVALID when the event fails its schema (the `ZodError` is the
   *   `cause`); nothing is written.
   * @throws {JournalError} JOURNAL_NOT_JOURNALED for connection-state events (`server.ready`,
   *   `pong`, `history.batch`, `incomplete.codon`), which are never journaled.
   * @throws {JournalError} JOURNAL_CLOSED after `close()`; JOURNAL_READ_ONLY on a read-only
   *   journal; JOURNAL_WRITE_FAILED when the backend could not write it.
   */
  append<E extends NewEvent>(event: E): Promise<HankweaveEvent<E['type']>> {
    try {
      const stored = this.#prepare(event);
      return this.#store([stored]).then(() => stored as HankweaveEvent<E['type']>);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The bulk mode (history replay, imports): validates every event first, so either all are
   * written or none is, then writes them in chunks (file: 10,000 lines per write) in order.
   * @throws {JournalError} the codes of `append`; JOURNAL_INVALID carries the failing index.
   */
  appendMany(events: readonly NewEvent[]): Promise<HankweaveEvent[]> {
    try {
      const stored = events.map((event, index) => this.#prepare(event, index));
      return this.#store(stored).then(() => stored);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The newest `limit` events, oldest first, with the total count and whether older events exist.
   * Costs O(limit) on the file backend, whatever the journal's size.
   * @throws {JournalError} JOURNAL_BAD_ARGUMENT when `limit` is not an integer ≥ 0.
   */
  async getMostRecentEvents(limit: number): Promise<RecentEvents> {
    checkCount('limit', limit, 0);
    await this.#ready();
    return this.backend.readRecent(limit);
  }

  /**
   * Every event, oldest first, one at a time (memory stays flat). Events of types this version
   * does not know are yielded too; check them with `isJournaledEvent` or `eventCategoryOf`.
   * @throws {JournalError} JOURNAL_CLOSED after `close()`; JOURNAL_READ_FAILED on I/O errors.
   */
  async *getAllEvents(): AsyncGenerator<HankweaveEvent, void, undefined> {
    await this.#ready();
    yield* this.backend.readAll();
  }

  /** How many events the journal holds, in O(1). */
  async getTotalEvents(): Promise<number> {
    await this.#ready();
    return this.backend.count();
  }

  /** The raw JSONL (seed 003 "Create Download Stream"): a Node `Readable` of bytes. */
  async streamAllEvents(): Promise<Readable> {
    await this.#ready();
    return this.backend.createRawStream();
  }

  /**
   * Up to `limit` events after `cursor` (omit it to start at the beginning). Keep `nextCursor` to
   * read the next page, or to pick up only new events later (history sync, tailing).
   * @throws {JournalError} JOURNAL_BAD_CURSOR when the cursor is malformed, from another journal or
   *   past its end; JOURNAL_BAD_ARGUMENT when `limit` is not an integer ≥ 1.
   */
  async getEventsAfter(cursor: string | null | undefined, limit: number): Promise<EventPage> {
    checkCount('limit', limit, 1);
    await this.#ready();
    return this.backend.readAfter(cursor, limit);
  }

  /** Counters about corrupt lines, repairs, trimming and index rebuilds. */
  async stats(): Promise<JournalStats> {
    await this.#ready();
    return this.backend.stats();
  }

  /**
   * Makes every event appended so far durable, whatever the durability mode.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when writing or syncing fails.
   */
  async flush(): Promise<void> {
    await this.#ready();
    await this.backend.flush();
  }

  /**
   * Waits for pending appends, flushes, and closes. Idempotent; later calls fail JOURNAL_CLOSED.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when the final flush fails.
   */
  close(): Promise<void> {
    this.#closing ??= this.backend.close();
    return this.#closing;
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  #store(events: HankweaveEvent[]): Promise<void> {
    if (this.#closing) return Promise.reject(closedError());
    // No await before backend.append: calling it synchronously is what keeps callers in order.
    return this.backend.append(events);
  }

  async #ready(): Promise<void> {
    if (this.#closing) throw closedError();
    await this.initialize();
  }

  #prepare(event: unknown, index?: number): HankweaveEvent {
    const at = index === undefined ? {} : { index };
    if (isConnectionStateEvent(event as { type: string })) {
      const type = (event as { type: string }).type;
      throw new JournalError(
        'JOURNAL_NOT_JOURNALED',
        `'${type}' is a connection-state event; those are sent to one client and never journaled`,
        { details: { type, ...at } },
      );
    }
    const parsed = newEventSchema.safeParse(event);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }));
      const type = (event as { type?: unknown } | null)?.type;
      throw new JournalError('JOURNAL_INVALID', `Invalid event: ${describe(issues[0])}`, {
        cause: parsed.error,
        details: { type: typeof type === 'string' ? type : null, issues, ...at },
      });
    }
    const { id, type, timestamp, data, ...rest } = parsed.data;
    const stored = { id: id ?? createEventId(), type, timestamp, data, ...rest };
    if (!isJournaledEvent(stored)) {
      throw new JournalError('JOURNAL_INVALID', `Unknown event type '${type}'`, {
        details: { type, ...at },
      });
    }
    return stored;
  }
}

function describe(issue: { path: string; message: string } | undefined): string {
  if (!issue) return 'does not match the event schema';
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

function closedError(): JournalError {
  return new JournalError('JOURNAL_CLOSED', 'Journal is closed');
}

function checkCount(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new JournalError('JOURNAL_BAD_ARGUMENT', `${name} must be an integer ≥ ${minimum}`, {
      details: { [name]: value },
    });
  }
}

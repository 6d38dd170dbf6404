import type { Readable } from 'node:stream';
import type { HankweaveEvent } from '@hankweave/types';

/**
 * What a backend can and cannot do. The conformance suite reads these instead of skipping cases
 * by backend name.
 */
export interface JournalCapabilities {
  /** Events survive `close()` and a reopen of the same storage (file: yes; memory: no). */
  readonly persistent: boolean;
  /**
   * The most events the backend retains; older ones are trimmed. `undefined` means unbounded.
   * Every count and read reflects what is retained, so `getTotalEvents()` always equals the number
   * of events `readAll()` yields.
   */
  readonly maxEvents: number | undefined;
  /** Appends are refused with `JOURNAL_READ_ONLY` (an archived `.jsonl.gz`, a read-only open). */
  readonly readOnly: boolean;
}

/** The answer to `getMostRecentEvents(limit)` (seed 003 "Get Recent Events"). */
export interface RecentEvents {
  /** At most `limit` events, the newest ones, oldest first (chronological, ready to replay). */
  events: HankweaveEvent[];
  /** How many events the journal holds in total. */
  totalEvents: number;
  /** True when the journal holds more events than were returned. */
  hasMore: boolean;
}

/** One page of `getEventsAfter(cursor, limit)`. */
export interface EventPage {
  /** At most `limit` events that follow the cursor, oldest first. */
  events: HankweaveEvent[];
  /**
   * Where the next page starts: pass it back to continue. When `hasMore` is false it points at the
   * end of the journal, so calling again later returns only events appended since (tailing).
   */
  nextCursor: string;
  /** True when events exist beyond `nextCursor` right now. */
  hasMore: boolean;
}

/** Counters a backend keeps about what it read, repaired and skipped. */
export interface JournalStats {
  /** Events the journal holds (same as `getTotalEvents()`). */
  totalEvents: number;
  /** Complete lines in the file, corrupt ones included (memory: retained events). */
  lines: number;
  /** Complete lines that are not a JSON event envelope; they are skipped by every read. */
  corruptLines: number;
  /** Torn last lines repaired at open (file backend; see README "Recovery"). */
  tornLinesRepaired: number;
  /** Bytes after the last newline, ignored by readers (a writer in another process mid-write). */
  partialTailBytes: number;
  /** Bytes of complete lines. */
  byteLength: number;
  /** Events dropped by a bounded backend to stay under `maxEvents`. */
  trimmedEvents: number;
  /** How many times the sidecar index had to be rebuilt or extended by scanning the file. */
  indexRebuilds: number;
  /** How many times the journal file was found moved, gzipped or replaced and was reopened. */
  recreations: number;
}

/** Something a backend noticed and survived: a corrupt line, a repaired tail, a rebuilt index. */
export interface JournalWarning {
  kind: 'corrupt-line' | 'torn-line-repaired' | 'index-rebuilt' | 'journal-recreated';
  message: string;
  details: Readonly<Record<string, unknown>>;
}

/** Receives {@link JournalWarning}s; the journal never logs on its own. */
export type JournalWarningHandler = (warning: JournalWarning) => void;

/**
 * The storage backend behind an `EventJournal`: the spec every backend implements and that
 * `describeJournalConformance` (from `@hankweave/journal/testing`) checks.
 *
 * The journal validates events and assigns ids before they reach the backend, so a backend stores
 * events as given and never sees an invalid one. Reads are tolerant: a backend that persists
 * bytes skips what it cannot parse and counts it in `stats()`, and never fails because of content.
 */
export interface JournalBackend {
  /** What this backend supports (see {@link JournalCapabilities}). */
  readonly capabilities: JournalCapabilities;

  /**
   * Opens the storage: creates it if needed, repairs a torn tail, loads or rebuilds indexes.
   * Called once by `EventJournal.initialize()` before anything else; calling it again is a no-op.
   * @throws {JournalError} JOURNAL_OPEN_FAILED when the storage cannot be opened or created.
   */
  initialize(): Promise<void>;

  /**
   * Stores validated events, each with an id, after everything stored before. Calls made without
   * awaiting the previous one must still be applied in call order: the backend queues them
   * synchronously before its first `await`. Resolves once the events are acknowledged, which means
   * what the backend's durability mode says (file: on disk for `fsync` and `batched`).
   * @throws {JournalError} JOURNAL_READ_ONLY when the backend is read-only.
   * @throws {JournalError} JOURNAL_CLOSED when `close()` was called.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when the events could not be written (none of them
   *   is then visible to readers, and the backend keeps working) or made durable (the file
   *   backend's fsync failed: the events may or may not be in the file, and every later append is
   *   refused with this code until the journal is reopened).
   */
  append(events: readonly HankweaveEvent[]): Promise<void>;

  /**
   * The newest `limit` events, oldest first, with the total count. O(limit), not O(journal).
   * @throws {JournalError} JOURNAL_READ_FAILED when the storage cannot be read.
   */
  readRecent(limit: number): Promise<RecentEvents>;

  /**
   * Every event, oldest first, one at a time: memory stays flat whatever the journal's size. The
   * set is fixed when iteration begins; events appended later are not yielded. Unknown event types
   * (from newer runtimes) are yielded as they are; lines without an `id` get a deterministic one.
   * @throws {JournalError} JOURNAL_READ_FAILED when the storage cannot be read.
   */
  readAll(): AsyncGenerator<HankweaveEvent, void, undefined>;

  /**
   * Up to `limit` events after `cursor` (`undefined` or `null`: from the start), for paging and
   * history sync. The cursor is opaque to callers.
   * @throws {JournalError} JOURNAL_BAD_CURSOR when the cursor is malformed, belongs to another
   *   journal (or to one that was archived and recreated), or points past the end.
   * @throws {JournalError} JOURNAL_READ_FAILED when the storage cannot be read.
   */
  readAfter(cursor: string | null | undefined, limit: number): Promise<EventPage>;

  /**
   * How many events the journal holds, in O(1) (no scan of what is already indexed).
   * @throws {JournalError} JOURNAL_READ_FAILED when the storage cannot be read.
   */
  count(): Promise<number>;

  /**
   * The raw JSONL bytes (one event per line, as stored; complete lines only), for downloads and
   * piping to other tools. The stream stays valid after `close()`.
   * @throws {JournalError} JOURNAL_READ_FAILED when the storage cannot be read.
   */
  createRawStream(): Promise<Readable>;

  /** Counters about corrupt lines, repairs, trimming and index rebuilds. */
  stats(): Promise<JournalStats>;

  /**
   * Makes every event acknowledged or queued so far durable (file: written and fsynced, whatever
   * the durability mode) and persists any index.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when writing or syncing fails.
   */
  flush(): Promise<void>;

  /**
   * Waits for queued appends, flushes and releases resources. Later appends and reads fail with
   * `JOURNAL_CLOSED`; calling `close()` again is a no-op.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when the final flush fails.
   */
  close(): Promise<void>;
}

/** The seed's name for a backend (`FileEventStorage`, `MemoryEventStorage`). */
export type EventStorage = JournalBackend;

import type { Fs } from '@hankweave/durable-io';
import { FileEventStorage } from './backends/file/file-event-storage.js';
import type { FileEventStorageOptions } from './backends/file/file-options.js';
import { GzipEventStorage } from './backends/gzip/gzip-event-storage.js';
import {
  MemoryEventStorage,
  type MemoryEventStorageOptions,
} from './backends/memory/memory-event-storage.js';
import { EventJournal } from './event-journal.js';
import type { JournalWarningHandler } from './journal-backend.js';

/**
 * Opens (creating if needed) the journal of an execution, `{hankweaveDir}/events/events.jsonl`,
 * or the file given as `path`. A torn last line is repaired and the index loaded or rebuilt before
 * this resolves.
 * @throws {JournalError} JOURNAL_OPEN_FAILED when the file cannot be opened or created.
 * @throws {JournalError} JOURNAL_BAD_ARGUMENT when neither `hankweaveDir` nor `path` is given.
 */
export async function createFileJournal(options: FileEventStorageOptions): Promise<EventJournal> {
  const journal = new EventJournal(new FileEventStorage(options));
  await journal.initialize();
  return journal;
}

/**
 * A journal in memory: at most `maxEvents` (default 100) events, the oldest trimmed first.
 * @throws {JournalError} JOURNAL_BAD_ARGUMENT when `maxEvents` is not a positive integer.
 */
export function createMemoryJournal(options: MemoryEventStorageOptions = {}): EventJournal {
  return new EventJournal(new MemoryEventStorage(options));
}

/** Options of {@link openJournalReadOnly}. */
export interface ReadOnlyJournalOptions {
  /** Plain `.jsonl` only: the file system to read through (default `nodeFs`). */
  fs?: Fs;
  onWarning?: JournalWarningHandler;
}

/**
 * Opens a journal for reading only: a live `events.jsonl` (nothing is written, not even a
 * repair; another process may keep appending) or an archived `.jsonl.gz`. Appends fail with
 * `JOURNAL_READ_ONLY`.
 * @throws {JournalError} JOURNAL_OPEN_FAILED when the file does not exist or cannot be read.
 */
export async function openJournalReadOnly(
  path: string,
  options: ReadOnlyJournalOptions = {},
): Promise<EventJournal> {
  const backend = path.endsWith('.gz')
    ? new GzipEventStorage(path)
    : new FileEventStorage({ path, readOnly: true, ...options });
  const journal = new EventJournal(backend);
  await journal.initialize();
  return journal;
}

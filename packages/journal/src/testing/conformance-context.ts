import type { EventJournal } from '../event-journal.js';
import type { JournalBackend } from '../journal-backend.js';

/** How the conformance suite creates, reopens and disposes of instances of a backend. */
export interface JournalHarness {
  /** Shown in test titles. */
  name: string;
  /** A fresh, empty backend whose storage is isolated from every other test. */
  create(): Promise<JournalBackend>;
  /**
   * A new backend over the same storage as `previous`, which the suite has closed. Provide it for
   * persistent backends: it enables the durability cases.
   */
  reopen?(previous: JournalBackend): Promise<JournalBackend>;
  /** Removes what `create` made (temporary directories ...). Called with every created backend. */
  destroy?(backend: JournalBackend): Promise<void>;
}

/** What each case file receives: the current journal of the running test, and helpers. */
export interface ConformanceContext {
  harness: JournalHarness;
  /** An initialised journal over a fresh backend, new for each test. */
  journal(): EventJournal;
  /** Closes the current journal and reopens its storage (only when `harness.reopen` exists). */
  reopen(): Promise<EventJournal>;
  /** Another independent journal, disposed of after the test. */
  createOther(): Promise<EventJournal>;
}

/** Collects every event of `getAllEvents()`. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** Reads a whole stream into one string. */
export async function readText(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

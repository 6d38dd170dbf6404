import { join } from 'node:path';
import type { Fs } from '@hankweave/durable-io';
import type { JournalWarningHandler } from '../../journal-backend.js';
import type { Durability } from './append-queue.js';

/** Options of {@link FileEventStorage}; give `hankweaveDir` or `path`. */
export interface FileEventStorageOptions {
  /** The execution's `.hankweave` directory; the journal is `{hankweaveDir}/events/events.jsonl`. */
  hankweaveDir?: string;
  /** The journal file itself (wins over `hankweaveDir`). */
  path?: string;
  /** When an append is acknowledged (README "Durability"). Default `batched`. */
  durability?: Durability;
  /** `batched`: longest wait before an fsync, in ms. Default 10. */
  batchIntervalMs?: number;
  /** `batched`: fsync as soon as this many events wait. Default 512. */
  batchMaxEvents?: number;
  /** Bulk appends are written in chunks of this many lines. Default 10,000. */
  bulkChunkEvents?: number;
  /** Lines between two saves of the sidecar index. Default 1000. */
  indexInterval?: number;
  /** Open without writing anything (no repair, no sidecar); appends fail `JOURNAL_READ_ONLY`. */
  readOnly?: boolean;
  /**
   * The file system to go through (default `nodeFs`, the real one); tests inject faults with
   * `createFaultyFs` from `@hankweave/durable-io/testing`.
   */
  fs?: Fs;
  /** Receives corrupt-line, repair, index and recreation notices. */
  onWarning?: JournalWarningHandler;
}

/** Where the journal of an execution lives (seed 001). */
export const journalPathOf = (hankweaveDir: string): string =>
  join(hankweaveDir, 'events', 'events.jsonl');

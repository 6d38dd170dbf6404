import type { FileHandle } from 'node:fs/promises';
import type { Fs } from '@hankweave/durable-io';
import type { JournalStats, JournalWarningHandler } from '../../journal-backend.js';
import { extendIndex } from './file-scan.js';
import { emptyIndex, type JournalIndex, loadIndex } from './journal-index.js';

/** Counters shared by the reading and writing halves of the file backend. */
export type FileCounters = Pick<
  JournalStats,
  'tornLinesRepaired' | 'indexRebuilds' | 'recreations'
>;

/**
 * The in-memory picture of one journal file: its index, which file (inode) it describes, and the
 * unfinished bytes after the last newline. Both the writer and readers keep it in step with the
 * file through `adopt` and `catchUp`.
 */
export class FileState {
  index: JournalIndex = emptyIndex();
  /** `dev:ino` of the file the index describes; undefined when there is no file. */
  identity: string | undefined;
  partialTailBytes = 0;
  /** File size when last looked at, so an unchanged unfinished tail is not rescanned. */
  seenSize = 0;
  #corruptWarnings = 0;

  constructor(
    readonly fs: Fs,
    readonly indexPath: string,
    readonly counters: FileCounters,
    readonly onWarning: JournalWarningHandler | undefined,
  ) {}

  /** Forgets everything: the journal file is gone. */
  reset(): void {
    this.index = emptyIndex();
    this.identity = undefined;
    this.partialTailBytes = 0;
    this.seenSize = 0;
  }

  /**
   * Takes on a file seen for the first time (at open, or after it was replaced): trusts the
   * sidecar when it matches the file, then scans whatever the sidecar does not cover.
   */
  async adopt(
    handle: FileHandle,
    identity: string,
    size: number,
    useSidecar: boolean,
  ): Promise<void> {
    const loaded = useSidecar ? await loadIndex(this.fs, this.indexPath, handle, size) : undefined;
    this.index = loaded ?? emptyIndex();
    this.identity = identity;
    this.partialTailBytes = 0;
    this.seenSize = -1;
    if (!loaded && size > 0) this.#noteRebuild('missing or out of date', 0);
    if (loaded && size > loaded.byteLength) this.#noteRebuild('behind the file', loaded.byteLength);
    await this.catchUp(handle, size);
  }

  /** Scans complete lines appended beyond the index (by another process or an older runtime). */
  async catchUp(handle: FileHandle, size: number): Promise<void> {
    if (size === this.seenSize) return;
    this.partialTailBytes = await extendIndex(handle, this.index, size, (line) =>
      this.#warnCorrupt(line),
    );
    this.seenSize = size;
  }

  #noteRebuild(reason: string, fromOffset: number): void {
    this.counters.indexRebuilds += 1;
    this.onWarning?.({
      kind: 'index-rebuilt',
      message: `Journal index ${reason}; scanning from byte ${fromOffset}`,
      details: { reason, fromOffset },
    });
  }

  #warnCorrupt(line: { lineNumber: number; offset: number }): void {
    // Every corrupt line is counted in stats(); only the first few are reported one by one.
    this.#corruptWarnings += 1;
    if (this.#corruptWarnings > 20) return;
    this.onWarning?.({
      kind: 'corrupt-line',
      message: `Skipping corrupt journal line ${line.lineNumber + 1} (byte ${line.offset})`,
      details: line,
    });
  }
}

/** `dev:ino`, which changes when a file is replaced or recreated. */
export const fileIdentity = (stats: { dev: number; ino: number }): string =>
  `${stats.dev}:${stats.ino}`;

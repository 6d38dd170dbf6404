import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode, hasErrno, type Mutex, syncDirectory } from '@hankweave/durable-io';
import { JournalError } from '../../errors.js';
import type { QueueEntry, QueueTarget } from './append-queue.js';
import { type FileState, fileIdentity } from './file-state.js';
import { recordLine, saveIndex } from './journal-index.js';
import { repairTornTail } from './torn-tail.js';

/**
 * The single writer of one journal file. Owns the append handle, repairs the tail before the
 * first write, notices when the file was moved away, gzipped, truncated or replaced (and starts a
 * new one at the same path), and keeps the shared {@link FileState} exact after each write.
 */
export class FileWriter implements QueueTarget {
  #handle: FileHandle | undefined;
  /** `dev:ino` of the file `#handle` appends to (readers may have moved the state on). */
  #handleIdentity: string | undefined;
  #broken: unknown;
  #linesAtSave = 0;
  #syncing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    readonly state: FileState,
    readonly mutex: Mutex,
    readonly indexInterval: number,
  ) {}

  /** Opens (creating) the file, repairs a torn tail and loads or rebuilds the index. */
  async open(): Promise<void> {
    const { fs } = this.state;
    try {
      await fs.mkdir(dirname(this.path), { recursive: true });
      const handle = await fs.open(this.path, 'a+');
      this.#handle = handle;
      const stats = await handle.stat();
      this.#handleIdentity = fileIdentity(stats);
      const repair = await repairTornTail(handle, stats.size);
      if (repair.action !== 'none') {
        this.state.counters.tornLinesRepaired += 1;
        this.state.onWarning?.({
          kind: 'torn-line-repaired',
          message: `Repaired a torn last line of ${repair.tailBytes} bytes (${repair.action})`,
          details: { action: repair.action, bytes: repair.tailBytes, path: this.path },
        });
      }
      if (stats.size === 0) await this.#syncDirectory();
      await this.state.adopt(handle, fileIdentity(stats), repair.size, true);
      this.#linesAtSave = this.state.index.lines;
    } catch (error) {
      await this.#handle?.close().catch(() => undefined);
      this.#handle = undefined;
      this.#handleIdentity = undefined;
      throw new JournalError('JOURNAL_OPEN_FAILED', `Cannot open journal ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    }
  }

  /** Writes the entries in order, then accounts for their lines in the index. */
  write(entries: readonly QueueEntry[]): Promise<void> {
    return this.mutex.run(async () => {
      if (this.#broken !== undefined) throw this.#failure('journal is unusable', this.#broken);
      await this.#ensureCurrentFile();
      const handle = this.#handle as FileHandle;
      const before = this.state.index.byteLength;
      const buffer = Buffer.from(entries.map((entry) => entry.text).join(''));
      try {
        let written = 0;
        while (written < buffer.length) {
          const { bytesWritten } = await handle.write(buffer, written, buffer.length - written);
          written += bytesWritten;
        }
      } catch (error) {
        // Take the partial write back so no reader sees half a line and the next write starts on
        // a line boundary; if even that fails the file can no longer be trusted.
        await handle.truncate(before).catch((truncateError: unknown) => {
          this.#broken = truncateError;
        });
        throw this.#failure('write failed', error);
      }
      for (const entry of entries) {
        entry.lines.forEach((line, i) => {
          recordLine(this.state.index, line, entry.byteLengths[i] as number, true);
        });
      }
      this.state.seenSize = this.state.index.byteLength;
      if (this.state.index.lines - this.#linesAtSave >= this.indexInterval) await this.#saveIndex();
    });
  }

  /** Fsyncs the current file. A failed fsync leaves the page cache in doubt: stop writing. */
  async sync(): Promise<void> {
    const handle = this.#handle;
    if (!handle || this.#broken !== undefined) {
      if (this.#broken !== undefined) throw this.#failure('journal is unusable', this.#broken);
      return;
    }
    const syncing = handle.sync();
    this.#syncing = syncing.catch(() => undefined);
    try {
      await syncing;
    } catch (error) {
      this.#broken = error;
      throw this.#failure('fsync failed', error);
    }
  }

  /** Persists the sidecar index now. */
  saveIndexNow(): Promise<void> {
    return this.mutex.run(() => this.#saveIndex());
  }

  /**
   * Saves the index and releases the handle.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when closing the file fails.
   */
  async close(): Promise<void> {
    await this.saveIndexNow();
    await this.#syncing;
    const handle = this.#handle;
    this.#handle = undefined;
    try {
      await handle?.close();
    } catch (error) {
      throw this.#failure('close failed', error);
    }
  }

  /**
   * A new file is only durable once its directory entry is: fsync the directory after creating
   * it. Best effort: `syncDirectory` already skips file systems that cannot sync a directory, and
   * any other failure is swallowed too (as before), since the file's own fsyncs still apply and
   * refusing to open the journal over it would lose more than it protects.
   */
  async #syncDirectory(): Promise<void> {
    await syncDirectory(dirname(this.path), { fs: this.state.fs }).catch(() => undefined);
  }

  async #saveIndex(): Promise<void> {
    if (this.state.identity === undefined) return;
    try {
      await saveIndex(this.state.fs, this.state.indexPath, this.state.index);
      this.#linesAtSave = this.state.index.lines;
    } catch {
      // The sidecar is only a cache; the next open rebuilds it from the journal.
    }
  }

  /**
   * Before each write: is our handle still the file at `path`? If the file was moved or gzipped
   * (seed 003 "Archiving"), truncated or replaced, start over on whatever is at `path` now.
   * Lines another process appended are scanned in, and a torn tail they left is repaired.
   */
  async #ensureCurrentFile(): Promise<void> {
    const { fs } = this.state;
    const current = await fs.stat(this.path).catch((error: unknown) => {
      if (hasErrno(error, 'ENOENT')) return undefined;
      throw this.#failure('cannot stat the journal', error);
    });
    const replaced =
      !current ||
      !this.#handle ||
      fileIdentity(current) !== this.#handleIdentity ||
      this.state.identity !== this.#handleIdentity ||
      current.size < this.state.index.byteLength;
    if (replaced) {
      await this.#reopen();
      return;
    }
    if (current.size === this.state.index.byteLength) return;
    const handle = this.#handle as FileHandle;
    await this.state.catchUp(handle, current.size);
    if (this.state.partialTailBytes > 0) {
      const repair = await repairTornTail(handle, current.size);
      this.state.counters.tornLinesRepaired += 1;
      await this.state.catchUp(handle, repair.size);
    }
  }

  async #reopen(): Promise<void> {
    const old = this.#handle;
    // Acknowledgements still waiting for an fsync cover bytes in the old file: sync it first.
    await this.#syncing;
    await old?.sync().catch(() => undefined);
    await old?.close().catch(() => undefined);
    this.#handle = undefined;
    this.state.reset();
    this.state.counters.recreations += 1;
    this.state.onWarning?.({
      kind: 'journal-recreated',
      message: `Journal ${this.path} was moved, archived or replaced; continuing in a new file`,
      details: { path: this.path },
    });
    try {
      await this.open();
    } catch (error) {
      throw this.#failure('cannot recreate the journal', error);
    }
  }

  #failure(reason: string, cause: unknown): JournalError {
    return new JournalError('JOURNAL_WRITE_FAILED', `Journal ${this.path}: ${reason}`, {
      cause,
      details: { path: this.path, reason, errno: errnoCode(cause) },
    });
  }
}

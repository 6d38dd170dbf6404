import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { errnoCode, type Fs, hasErrno, Mutex, nodeFs } from '@hankweave/durable-io';
import type { HankweaveEvent } from '@hankweave/types';
import { JournalError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../internal/cursor.js';
import type {
  EventPage,
  JournalBackend,
  JournalCapabilities,
  JournalStats,
  RecentEvents,
} from '../../journal-backend.js';
import { AppendQueue } from './append-queue.js';
import { checkCursor } from './file-cursor.js';
import { readEvents, readPage } from './file-forward.js';
import { type FileEventStorageOptions, journalPathOf } from './file-options.js';
import { type FileCounters, FileState, fileIdentity } from './file-state.js';
import { readTail } from './file-tail.js';
import { FileWriter } from './file-writer.js';

interface Snapshot {
  handle: FileHandle | undefined;
  byteLength: number;
  index: FileState['index'];
}

/**
 * The default backend (seed 003 `FileEventStorage`): an append-only JSONL file with a sidecar
 * index `events.jsonl.idx`, so counts are O(1) and tail reads O(limit) at any size.
 */
export class FileEventStorage implements JournalBackend {
  readonly path: string;
  readonly capabilities: JournalCapabilities;
  readonly #fs: Fs;
  readonly #mutex = new Mutex();
  readonly #counters: FileCounters = { tornLinesRepaired: 0, indexRebuilds: 0, recreations: 0 };
  readonly #state: FileState;
  readonly #writer: FileWriter | undefined;
  readonly #queue: AppendQueue | undefined;
  #initialized: Promise<void> | undefined;
  #closed = false;

  constructor(options: FileEventStorageOptions) {
    const path = options.path ?? (options.hankweaveDir && journalPathOf(options.hankweaveDir));
    if (!path) {
      throw new JournalError('JOURNAL_BAD_ARGUMENT', 'FileEventStorage needs a path', {
        details: { option: 'path' },
      });
    }
    this.path = path;
    this.#fs = options.fs ?? nodeFs;
    const readOnly = options.readOnly ?? false;
    this.capabilities = { persistent: true, maxEvents: undefined, readOnly };
    this.#state = new FileState(this.#fs, `${path}.idx`, this.#counters, options.onWarning);
    if (readOnly) return;
    this.#writer = new FileWriter(path, this.#state, this.#mutex, options.indexInterval ?? 1000);
    const writer = this.#writer;
    // Appends may be queued before initialize() settles; the first write waits for the open.
    const target = {
      write: async (entries: Parameters<FileWriter['write']>[0]) => {
        await this.initialize();
        return writer.write(entries);
      },
      sync: () => writer.sync(),
    };
    this.#queue = new AppendQueue(target, {
      durability: options.durability ?? 'batched',
      batchIntervalMs: options.batchIntervalMs ?? 10,
      batchMaxEvents: options.batchMaxEvents ?? 512,
      chunkLines: options.bulkChunkEvents ?? 10_000,
    });
  }

  initialize(): Promise<void> {
    this.#initialized ??= this.#writer ? this.#writer.open() : this.#openForReading();
    return this.#initialized;
  }

  append(events: readonly HankweaveEvent[]): Promise<void> {
    if (!this.#queue) {
      return Promise.reject(
        new JournalError('JOURNAL_READ_ONLY', `Journal ${this.path} is open read-only`, {
          details: { path: this.path },
        }),
      );
    }
    if (this.#closed) return Promise.reject(this.#closedError());
    // Serialised now, synchronously: this fixes the order of concurrent callers.
    return this.#queue.enqueue(events.map((event) => JSON.stringify(event)));
  }

  async readRecent(limit: number): Promise<RecentEvents> {
    return this.#read(async (handle, index) => {
      const events = handle ? await readTail(handle, index.byteLength, index.lines, limit) : [];
      return { events, totalEvents: index.events, hasMore: index.events > events.length };
    });
  }

  async *readAll(): AsyncGenerator<HankweaveEvent, void, undefined> {
    const { handle, byteLength } = await this.#snapshot();
    if (!handle) return;
    try {
      yield* readEvents(handle, byteLength);
    } finally {
      await handle.close();
    }
  }

  async readAfter(cursor: string | null | undefined, limit: number): Promise<EventPage> {
    const position = cursor ? decodeCursor(cursor) : { line: 0, offset: 0, epoch: '' };
    return this.#read(async (handle, index) => {
      await checkCursor(handle, index, position, cursor ?? '');
      const page = handle
        ? await readPage(handle, position, index.byteLength, limit)
        : { events: [], next: position, hasMore: false };
      const epoch = page.next.line === 0 ? '' : index.firstLineHash;
      return {
        events: page.events,
        nextCursor: encodeCursor({ ...page.next, epoch }),
        hasMore: page.hasMore,
      };
    });
  }

  async count(): Promise<number> {
    return this.#read(async (_handle, index) => index.events, false);
  }

  async createRawStream(): Promise<Readable> {
    const { handle, byteLength } = await this.#snapshot();
    if (!handle || byteLength === 0) {
      await handle?.close();
      return Readable.from([]);
    }
    // Only complete lines: a line another process is still writing is left out.
    return handle.createReadStream({ start: 0, end: byteLength - 1, autoClose: true });
  }

  async stats(): Promise<JournalStats> {
    return this.#read(
      async (_handle, index) => ({
        totalEvents: index.events,
        lines: index.lines,
        corruptLines: index.corruptLines,
        partialTailBytes: this.#state.partialTailBytes,
        byteLength: index.byteLength,
        trimmedEvents: 0,
        ...this.#counters,
      }),
      false,
    );
  }

  async flush(): Promise<void> {
    await this.initialize();
    if (!this.#queue || !this.#writer) return;
    await this.#queue.flush();
    await this.#writer.saveIndexNow();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#initialized) return;
    await this.#initialized.catch(() => undefined);
    if (!this.#queue || !this.#writer) return;
    try {
      await this.#queue.flush();
    } finally {
      await this.#writer.close();
    }
  }

  #closedError(): JournalError {
    return new JournalError('JOURNAL_CLOSED', `Journal ${this.path} is closed`, {
      details: { path: this.path },
    });
  }

  async #openForReading(): Promise<void> {
    try {
      const stats = await this.#fs.stat(this.path);
      if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    } catch (error) {
      throw new JournalError('JOURNAL_OPEN_FAILED', `Cannot open journal ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    }
    await this.#takeSnapshot().then(({ handle }) => handle?.close());
  }

  /** Runs a read against a fresh snapshot, closing its handle afterwards. */
  async #read<T>(
    reader: (handle: FileHandle | undefined, index: FileState['index']) => Promise<T>,
    needHandle = true,
  ): Promise<T> {
    const { handle, index } = await this.#snapshot(needHandle);
    try {
      return await reader(handle, index);
    } catch (error) {
      if (JournalError.is(error)) throw error;
      throw new JournalError('JOURNAL_READ_FAILED', `Cannot read journal ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    } finally {
      await handle?.close();
    }
  }

  /**
   * Brings the state up to date with the file at `path` (it may have grown, been replaced or
   * removed since) and, when `needHandle`, opens a read handle on it. The index is copied, so
   * readers see one consistent point in time while the writer moves on.
   */
  async #snapshot(needHandle = true): Promise<Snapshot> {
    if (this.#closed) throw this.#closedError();
    await this.initialize();
    return this.#takeSnapshot(needHandle);
  }

  #takeSnapshot(needHandle = true): Promise<Snapshot> {
    return this.#mutex.run(async () => {
      // Counting needs no handle: one stat shows whether the file is still what the index says.
      if (!needHandle && (await this.#unchanged())) {
        return {
          handle: undefined,
          byteLength: this.#state.index.byteLength,
          index: { ...this.#state.index },
        };
      }
      let handle: FileHandle;
      try {
        handle = await this.#fs.open(this.path, 'r');
      } catch (error) {
        // ENOENT only: a parent that is not a directory (ENOTDIR) stays a read failure.
        if (!hasErrno(error, 'ENOENT')) throw this.#readFailure(error);
        this.#state.reset();
        return { handle: undefined, byteLength: 0, index: { ...this.#state.index } };
      }
      try {
        const stats = await handle.stat();
        const identity = fileIdentity(stats);
        if (identity !== this.#state.identity || stats.size < this.#state.index.byteLength) {
          // A file we have not seen (first read, or replaced): its sidecar is checked, not trusted.
          await this.#state.adopt(handle, identity, stats.size, true);
        } else {
          await this.#state.catchUp(handle, stats.size);
        }
      } catch (error) {
        await handle.close();
        throw this.#readFailure(error);
      }
      const index = { ...this.#state.index };
      if (!needHandle) await handle.close();
      return { handle: needHandle ? handle : undefined, byteLength: index.byteLength, index };
    });
  }

  async #unchanged(): Promise<boolean> {
    try {
      const stats = await this.#fs.stat(this.path);
      return fileIdentity(stats) === this.#state.identity && stats.size === this.#state.seenSize;
    } catch {
      return false; // let the full path tell a missing file from an unreadable one
    }
  }

  #readFailure(error: unknown): JournalError {
    return new JournalError('JOURNAL_READ_FAILED', `Cannot read journal ${this.path}`, {
      cause: error,
      details: { path: this.path, errno: errnoCode(error) },
    });
  }
}

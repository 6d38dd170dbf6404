import { createDeferred, type Deferred } from '../../internal/deferred.js';

/**
 * When an append is acknowledged (its promise resolves):
 * - `fsync`: after its bytes are written and fsynced. Each append is durable on resolve; appends
 *   that arrive together share one write and one fsync (group commit).
 * - `batched`: bytes are written at once; an fsync covers everything written so far, and runs when
 *   `batchMaxEvents` are waiting, or as soon as `batchIntervalMs` have passed since the previous
 *   fsync (so at most one fsync per interval, and none of the wait when events are sparse). Every
 *   append of the batch resolves after that fsync.
 * - `none`: after its bytes are handed to the operating system (they survive a crash of the
 *   process, not of the machine).
 */
export type Durability = 'fsync' | 'batched' | 'none';

/** Lines queued by one caller: written together, acknowledged together. */
export interface QueueEntry {
  lines: string[];
  byteLengths: number[];
  text: string;
  done: Deferred<void>;
}

/** How the queue reaches the file. */
export interface QueueTarget {
  /** Writes the entries' bytes in order; on failure none of them is visible. */
  write(entries: readonly QueueEntry[]): Promise<void>;
  /** Makes everything written so far durable. */
  sync(): Promise<void>;
}

export interface QueueOptions {
  durability: Durability;
  batchIntervalMs: number;
  batchMaxEvents: number;
  /** Most lines per write call (bulk appends are split into chunks of this size). */
  chunkLines: number;
}

/**
 * Orders appends and applies the durability mode. Entries are written strictly in enqueue order;
 * whatever queued while a write or fsync was in flight goes out in the next write (group commit).
 */
export class AppendQueue {
  readonly #target: QueueTarget;
  readonly #options: QueueOptions;
  #pending: QueueEntry[] = [];
  #unsynced: QueueEntry[] = [];
  #unsyncedLines = 0;
  #draining: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #syncChain: Promise<void> = Promise.resolve();
  /** When the last fsync started (`performance.now()`); batched mode spaces fsyncs from it. */
  #lastSyncAt = Number.NEGATIVE_INFINITY;

  constructor(target: QueueTarget, options: QueueOptions) {
    this.#target = target;
    this.#options = options;
  }

  /** Queues lines synchronously (so call order is write order); resolves on acknowledgement. */
  enqueue(lines: string[]): Promise<void> {
    const entries: Promise<void>[] = [];
    for (let start = 0; start < lines.length; start += this.#options.chunkLines) {
      const chunk = lines.slice(start, start + this.#options.chunkLines);
      const done = createDeferred();
      this.#pending.push({
        lines: chunk,
        byteLengths: chunk.map((line) => Buffer.byteLength(line) + 1),
        text: `${chunk.join('\n')}\n`,
        done,
      });
      entries.push(done.promise);
    }
    this.#draining ??= this.#drain();
    return entries.length === 1 ? (entries[0] as Promise<void>) : Promise.all(entries).then(noop);
  }

  /** Resolves when every entry queued so far is written and fsynced, whatever the mode. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
    await this.#syncUnsynced();
  }

  async #drain(): Promise<void> {
    // Let callers that append in the same tick join the first write.
    await Promise.resolve();
    try {
      while (this.#pending.length > 0) {
        const batch = this.#takeChunk();
        try {
          await this.#target.write(batch);
        } catch (error) {
          for (const entry of batch) entry.done.reject(error);
          continue;
        }
        this.#afterWrite(batch);
        // A failed fsync has already rejected its entries; keep draining (the target refuses
        // further writes if it is broken).
        if (this.#options.durability === 'fsync') await this.#syncUnsynced().catch(noop);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  #takeChunk(): QueueEntry[] {
    const batch: QueueEntry[] = [];
    let lines = 0;
    while (this.#pending.length > 0) {
      const next = this.#pending[0] as QueueEntry;
      if (batch.length > 0 && lines + next.lines.length > this.#options.chunkLines) break;
      batch.push(next);
      lines += next.lines.length;
      this.#pending.shift();
    }
    return batch;
  }

  #afterWrite(batch: QueueEntry[]): void {
    if (this.#options.durability === 'none') {
      for (const entry of batch) entry.done.resolve();
      return;
    }
    this.#unsynced.push(...batch);
    for (const entry of batch) this.#unsyncedLines += entry.lines.length;
    if (this.#options.durability !== 'batched') return;
    const wait = this.#lastSyncAt + this.#options.batchIntervalMs - performance.now();
    if (this.#unsyncedLines >= this.#options.batchMaxEvents || wait <= 0) {
      this.#syncUnsynced().catch(noop);
    } else {
      this.#timer ??= setTimeout(() => this.#syncUnsynced().catch(noop), wait);
    }
  }

  /**
   * Fsyncs and acknowledges what is written but not yet durable. Syncs are chained so that
   * acknowledgements never overtake each other.
   */
  #syncUnsynced(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const entries = this.#unsynced;
    this.#unsynced = [];
    this.#unsyncedLines = 0;
    const run = this.#syncChain.then(async () => {
      this.#lastSyncAt = performance.now();
      try {
        await this.#target.sync();
      } catch (error) {
        for (const entry of entries) entry.done.reject(error);
        throw error;
      }
      for (const entry of entries) entry.done.resolve();
    });
    this.#syncChain = run.catch(noop);
    return run;
  }
}

function noop(): void {}

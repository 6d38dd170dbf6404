import type { HankweaveState } from '@hankweave/types';
import { StateError, stateError } from '../errors.js';
import { preserveRejected, type SaveContext, saveStateFile } from './save-state.js';

/** Counters of the writer, for monitoring and benchmarks. */
export interface WriterStats {
  /** Transitions applied since the store was opened. */
  applied: number;
  /** The last applied transition number known to be on stable storage. */
  durable: number;
  /** Completed saves (each one a full, fsynced write of state.json). */
  writes: number;
  failedWrites: number;
  /** Bytes written by the last save. */
  lastWriteBytes: number;
  /** Milliseconds the last save took, serialisation included. */
  lastWriteMs: number;
  lastError?: StateError;
}

interface Waiter {
  version: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** What the writer needs from its store. */
export interface WriterSource {
  current(): { version: number; state: HankweaveState };
  /** Rejects when the store may no longer write (its runtime.lock was lost). */
  assertMayWrite(): Promise<void>;
}

/**
 * Serialises saves and coalesces bursts: at most one save runs at a time, and every transition
 * applied while it runs is folded into the next single save. `flush()` resolves once a save that
 * includes everything applied before the call has completed.
 */
export class StateWriter {
  readonly stats: WriterStats;
  private loop: Promise<void> | undefined;
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly source: WriterSource,
    private readonly context: SaveContext,
    private preserve: { paths: string[]; stamp: () => number; onMoved: (to: string[]) => void },
    private readonly onError: (error: StateError) => void,
  ) {
    this.stats = {
      applied: 0,
      durable: 0,
      writes: 0,
      failedWrites: 0,
      lastWriteBytes: 0,
      lastWriteMs: 0,
    };
  }

  /** Called after every apply: makes sure a save will pick the new state up. */
  notify(version: number): void {
    this.stats.applied = version;
    this.loop ??= this.run();
  }

  /** Resolves when every transition applied so far is durable. */
  flush(): Promise<void> {
    const version = this.source.current().version;
    if (version <= this.stats.durable) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => {
      this.waiters.push({ version, resolve, reject });
    });
    this.loop ??= this.run();
    return done;
  }

  // Settles, oldest first, every waiter whose transitions the save of `version` covered.
  private settle(version: number, error?: unknown): void {
    const covered = this.waiters.filter((waiter) => waiter.version <= version);
    const rest = this.waiters.filter((waiter) => waiter.version > version);
    this.waiters.length = 0;
    this.waiters.push(...rest);
    for (const waiter of covered) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  private async run(): Promise<void> {
    // Let the synchronous burst that triggered us finish first: it all goes into one save.
    await Promise.resolve();
    try {
      while (this.stats.durable < this.source.current().version) {
        const { version, state } = this.source.current();
        try {
          await this.saveOnce(state);
        } catch (error) {
          const failure = this.toWriteError(error);
          this.stats.failedWrites++;
          this.stats.lastError = failure;
          this.settle(version, failure);
          this.onError(failure);
          // Retry only for callers still waiting on later transitions; otherwise the next apply
          // or flush starts a new attempt (no busy retry against a failing disk).
          if (this.waiters.length === 0) return;
          continue;
        }
        this.stats.durable = version;
        this.settle(version);
      }
    } finally {
      this.loop = undefined;
    }
  }

  private async saveOnce(state: HankweaveState): Promise<void> {
    await this.source.assertMayWrite();
    const started = performance.now();
    if (this.preserve.paths.length > 0) {
      const moved = await preserveRejected(
        this.context.fs,
        this.preserve.paths,
        this.preserve.stamp(),
      );
      this.preserve = { ...this.preserve, paths: [] };
      this.preserve.onMoved(moved);
    }
    const json = JSON.stringify(state, null, 2);
    await saveStateFile(this.context, json);
    this.stats.writes++;
    this.stats.lastWriteBytes = Buffer.byteLength(json);
    this.stats.lastWriteMs = performance.now() - started;
  }

  private toWriteError(error: unknown): StateError {
    // A lost lock is reported as such; anything else (an I/O error, also one reading the lock)
    // is a failed save.
    if (StateError.is(error, 'STATE_LOCK_LOST')) return error;
    return stateError(
      'STATE_WRITE_FAILED',
      `Saving ${this.context.paths.primary} failed: ${error instanceof Error ? error.message : String(error)}. ` +
        'The state stays in memory and the next save tries again; free space or fix the directory, and nothing is lost.',
      { path: this.context.paths.primary, code: (error as { code?: string })?.code ?? null },
      error,
    );
  }
}

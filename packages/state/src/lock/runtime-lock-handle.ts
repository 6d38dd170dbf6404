import { type Fs, ignoreMissing, writeFileAtomic } from '@hankweave/durable-io';
import type { RuntimeLock } from '@hankweave/types';
import { stateError } from '../errors.js';
import type { StateLogger } from '../options.js';
import { asLockError, readLockFile } from './lock-file.js';

/** Fields a holder may set on its lock after acquiring it (`runId` once the run exists). */
export type RuntimeLockFields = Partial<Omit<RuntimeLock, 'pid' | 'lockId' | 'startTime'>> &
  Record<string, unknown>;

/** The holder the lock was taken from, when it was taken over. */
export interface PreviousLockHolder {
  reason: 'dead' | 'stale';
  /** Undefined when the old file did not parse (a torn write left long ago). */
  lock?: RuntimeLock;
}

interface HandleInit {
  fs: Fs;
  path: string;
  lock: RuntimeLock & { lockId: string };
  previous?: PreviousLockHolder;
  clock: () => Date;
  logger: StateLogger;
  heartbeatIntervalMs: number;
  onLost?: (onDisk: RuntimeLock | undefined) => void;
}

/**
 * A held `runtime.lock`. Keeps it alive with a heartbeat (an `unref`ed timer, so it never keeps
 * the process running), lets the holder add fields (`port`, `token`, ...), and releases it only
 * while the `lockId` on disk is still its own. When another process has taken the lock over, the
 * handle becomes `lost`: it stops writing and calls `onLost`.
 */
export class RuntimeLockHandle {
  /** Absolute path of `runtime.lock`. */
  readonly path: string;
  /** The token that identifies this acquisition. */
  readonly lockId: string;
  /** Set when the lock was taken over from a dead or stale holder. */
  readonly previous?: PreviousLockHolder;
  private content: RuntimeLock & { lockId: string };
  private timer: ReturnType<typeof setInterval> | undefined;
  private state: 'held' | 'lost' | 'released' = 'held';
  // Heartbeats and updates are serialised so that they never interleave their writes.
  private chain: Promise<unknown> = Promise.resolve();
  private readonly init: HandleInit;

  constructor(init: HandleInit) {
    this.init = init;
    this.path = init.path;
    this.lockId = init.lock.lockId;
    this.previous = init.previous;
    this.content = init.lock;
    if (init.heartbeatIntervalMs > 0 && Number.isFinite(init.heartbeatIntervalMs)) {
      this.timer = setInterval(() => {
        this.heartbeat().catch((error: unknown) =>
          init.logger.warn(`runtime.lock heartbeat failed: ${String(error)}`, { path: this.path }),
        );
      }, init.heartbeatIntervalMs);
      this.timer.unref();
    }
  }

  /** True until released or lost. */
  get held(): boolean {
    return this.state === 'held';
  }

  /** True once another process took the lock over (its `lockId` is on disk). */
  get lost(): boolean {
    return this.state === 'lost';
  }

  /** The content last written by this handle. */
  get current(): RuntimeLock {
    return { ...this.content };
  }

  /**
   * Rewrites `lastHeartbeat` (called every `heartbeatIntervalMs` by the timer).
   * @throws {StateError} STATE_LOCK_LOST when the lock on disk is no longer ours.
   * @throws {StateError} STATE_LOCK_FAILED when the lock cannot be read or written.
   */
  heartbeat(): Promise<RuntimeLock> {
    return this.write(() => ({ lastHeartbeat: this.init.clock().toISOString() }));
  }

  /**
   * Sets or changes fields of the lock (`runId`, `port`, `token`, ...) and rewrites it
   * atomically, mode 0600.
   * @throws {StateError} STATE_LOCK_LOST when the lock on disk is no longer ours.
   * @throws {StateError} STATE_LOCK_FAILED when the lock cannot be read or written.
   */
  update(fields: RuntimeLockFields): Promise<RuntimeLock> {
    const {
      pid: _pid,
      lockId: _lockId,
      startTime: _start,
      ...allowed
    } = fields as Record<string, unknown>;
    return this.write(() => allowed);
  }

  /**
   * Reads the lock file and resolves true while its `lockId` is ours; otherwise marks the
   * handle lost (calling `onLost`) and resolves false. The state store calls it before each save.
   * @throws {StateError} STATE_LOCK_FAILED when the lock file cannot be read.
   */
  verify(): Promise<boolean> {
    const result = this.chain.then(async () => {
      if (this.state !== 'held') return false;
      const onDisk = await readLockFile(this.init.fs, this.path);
      if (onDisk?.lock?.lockId === this.lockId) return true;
      this.markLost(onDisk?.lock);
      return false;
    });
    return this.settle(result, 'read');
  }

  /**
   * Stops the heartbeat and deletes the lock if its `lockId` is still ours. Resolves false when
   * it was not (lost to a successor, or already released): the file is then left alone.
   * @throws {StateError} STATE_LOCK_FAILED when the file cannot be read or deleted (the handle
   *   stays held: call it again).
   */
  async release(): Promise<boolean> {
    this.stopTimer();
    const result = this.chain.then(async () => {
      if (this.state !== 'held') return false;
      const onDisk = await readLockFile(this.init.fs, this.path);
      if (onDisk?.lock?.lockId !== this.lockId) {
        this.markLost(onDisk?.lock);
        return false;
      }
      await ignoreMissing(this.init.fs.unlink(this.path));
      // Only once the file is gone: a release that failed can be tried again.
      this.state = 'released';
      return true;
    });
    return this.settle(result, 'release');
  }

  private write(change: () => Record<string, unknown>): Promise<RuntimeLock> {
    const result = this.chain.then(async () => {
      if (this.state !== 'held') {
        throw stateError(
          'STATE_LOCK_LOST',
          `runtime.lock at ${this.path} is no longer held by this process (${this.state}).`,
          {
            path: this.path,
            lockId: this.lockId,
          },
        );
      }
      const onDisk = await readLockFile(this.init.fs, this.path);
      if (onDisk?.lock?.lockId !== this.lockId) {
        this.markLost(onDisk?.lock);
        throw stateError(
          'STATE_LOCK_LOST',
          `runtime.lock at ${this.path} was taken over` +
            (onDisk?.lock ? ` by pid ${onDisk.lock.pid}` : '') +
            '; this process must stop writing to the execution.',
          { path: this.path, lockId: this.lockId, holder: onDisk?.lock?.pid ?? null },
        );
      }
      const next = { ...this.content, ...change() } as RuntimeLock & { lockId: string };
      // Atomic and durable replace: readers see the old lock or the new one, never a torn file,
      // and a power loss cannot roll back a lock that a successor has already read. The temp
      // name is per acquisition (removeLeftoverLockTemps cleans up after killed writers).
      await writeFileAtomic(this.path, JSON.stringify(next, null, 2), {
        fs: this.init.fs,
        tempPath: `${this.path}.${this.lockId}.tmp`,
        mode: 0o600,
      });
      this.content = next;
      return { ...next };
    });
    return this.settle(result, 'write');
  }

  /** Queues `result` on the chain and turns an I/O failure into STATE_LOCK_FAILED. */
  private settle<T>(result: Promise<T>, doing: string): Promise<T> {
    this.chain = result.catch(() => undefined);
    return result.catch((error: unknown) => {
      throw asLockError(error, this.path, doing);
    });
  }

  private markLost(onDisk: RuntimeLock | undefined): void {
    if (this.state !== 'held') return;
    this.state = 'lost';
    this.stopTimer();
    this.init.onLost?.(onDisk);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

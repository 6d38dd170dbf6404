import { errnoCode, Mutex, sleep } from '@hankweave/durable-io';
import { lock } from 'proper-lockfile';
import { SessionsError } from '../errors.js';
import { ioError } from './json-file.js';

/** How a {@link withFileLock} caller waits for, and keeps, a cross-process lock. */
export interface FileLockOptions {
  /** A lock whose directory was not refreshed for this long is stale and taken over. */
  staleMs: number;
  /** Give up acquiring after this long: SESSIONS_LOCK_TIMEOUT. */
  timeoutMs: number;
}

/** What the locked section can ask about its lock. */
export interface HeldLock {
  /** Throws SESSIONS_IO when the lock was lost (taken over as stale) since it was acquired. */
  assertHeld(): void;
}

// proper-lockfile polls with mkdir; serialising the sections of one process first means only
// one of its callers polls at a time, and the others wait without touching the disk.
const processQueues = new Map<string, Mutex>();

const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 100;

/**
 * Runs `section` while holding the lock directory `lockPath` (proper-lockfile: an atomic mkdir,
 * its mtime refreshed while held, taken over once older than `staleMs`), first among this
 * process's callers, then across processes. The lock is released however the section ends.
 *
 * @throws {SessionsError} SESSIONS_LOCK_TIMEOUT when another holder keeps it past `timeoutMs`;
 *   SESSIONS_IO when the lock directory cannot be created.
 */
export async function withFileLock<T>(
  file: string,
  lockPath: string,
  options: FileLockOptions,
  section: (held: HeldLock) => Promise<T>,
): Promise<T> {
  let queue = processQueues.get(lockPath);
  if (!queue) {
    queue = new Mutex();
    processQueues.set(lockPath, queue);
  }
  return queue.run(async () => {
    let lost: unknown;
    const release = await acquire(file, lockPath, options, (error) => {
      lost = error;
    });
    const held: HeldLock = {
      assertHeld() {
        if (lost === undefined) return;
        throw new SessionsError(
          'SESSIONS_IO',
          `lost the lock ${lockPath} (this process was paused longer than its stale time, ` +
            `${options.staleMs} ms, and another took it over); nothing was written, try again`,
          { details: { file: lockPath }, cause: lost },
        );
      },
    };
    try {
      return await section(held);
    } finally {
      // A lost lock is already gone: releasing it again only reports ERELEASED.
      await release().catch(() => undefined);
    }
  });
}

async function acquire(
  file: string,
  lockPath: string,
  options: FileLockOptions,
  onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = FIRST_RETRY_MS;
  for (;;) {
    try {
      return await lock(file, {
        lockfilePath: lockPath,
        realpath: false,
        stale: options.staleMs,
        retries: 0,
        onCompromised,
      });
    } catch (error) {
      if (errnoCode(error) !== 'ELOCKED') throw ioError('create the lock', lockPath, error);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new SessionsError(
          'SESSIONS_LOCK_TIMEOUT',
          `${lockPath} is still locked after ${options.timeoutMs} ms. Another hankweave process ` +
            `is updating it; if none is running, remove that directory (a lock is also taken ` +
            `over by itself once it is ${options.staleMs} ms old)`,
          { details: { file: lockPath, timeoutMs: options.timeoutMs } },
        );
      }
      // Jitter keeps twenty waiting processes from retrying in lockstep.
      await sleep(Math.min(remaining, delay * (0.5 + Math.random())));
      delay = Math.min(delay * 1.5, LONGEST_RETRY_MS);
    }
  }
}

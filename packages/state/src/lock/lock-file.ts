import { hostname as osHostname } from 'node:os';
import { errnoCode, type Fs, isMissing } from '@hankweave/durable-io';
import { type RuntimeLock, runtimeLockSchema } from '@hankweave/types';
import { StateError, stateError } from '../errors.js';
import type { IsPidAlive } from '../options.js';
import { processStartTime } from './pid.js';

/** What a lock on disk says about its holder. */
export type LockHolderStatus = 'live' | 'dead' | 'stale' | 'unreadable';

/** A lock file as read from disk: the raw text (to detect changes) and its parsed content. */
export interface LockOnDisk {
  text: string;
  /** Undefined when the text is not a lock (torn or foreign). */
  lock?: RuntimeLock;
  mtimeMs: number;
}

/**
 * `error` as a StateError: ours as they are, anything else (an I/O error) as STATE_LOCK_FAILED,
 * so that no lock operation fails with a bare `EIO` or `EISDIR`.
 */
export const asLockError = (error: unknown, path: string, doing: string): StateError =>
  StateError.is(error)
    ? error
    : stateError(
        'STATE_LOCK_FAILED',
        `Cannot ${doing} ${path}: ${error instanceof Error ? error.message : String(error)}`,
        { path, code: errnoCode(error) ?? null },
        error,
      );

/** Reads the lock file; undefined when there is none. */
export const readLockFile = async (fs: Fs, path: string): Promise<LockOnDisk | undefined> => {
  let text: string;
  let mtimeMs: number;
  try {
    text = await fs.readFile(path, 'utf8');
    mtimeMs = (await fs.stat(path)).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  return { text, lock: parseLock(text, mtimeMs), mtimeMs };
};

const parseLock = (text: string, mtimeMs: number): RuntimeLock | undefined => {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Old runtimes wrote a bare pid; read it as a lock whose heartbeat is the file's mtime.
  if (typeof data === 'number') {
    const at = new Date(mtimeMs).toISOString();
    data = { pid: data, runId: null, startTime: at, lastHeartbeat: at };
  }
  // The legacy form goes through the schema too: a pid that is no safe integer is no lock.
  const parsed = runtimeLockSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Classifies a lock: `dead` when its pid is gone, `stale` when its heartbeat (or, for a file
 * that does not parse, its mtime) is older than `staleAfterMs`, `unreadable` for a recent file
 * that does not parse (fail closed: it may be being written), else `live`. The pid is only
 * looked at for a lock of this machine: one written on another host of a fleet sharing the
 * execution's storage (its `hostname` differs) is judged by its heartbeat alone. A pid that is
 * alive but started at another time than the lock records (`processStartTime`) is a reused pid:
 * the holder is dead.
 */
export const lockHolderStatus = (
  onDisk: LockOnDisk,
  now: number,
  staleAfterMs: number,
  isPidAlive: IsPidAlive,
  hostname: string = osHostname(),
  startTimeOf: (pid: number) => string | undefined = processStartTime,
): LockHolderStatus => {
  if (onDisk.lock === undefined) {
    return now - onDisk.mtimeMs > staleAfterMs ? 'stale' : 'unreadable';
  }
  const here = onDisk.lock.hostname === undefined || onDisk.lock.hostname === hostname;
  if (here && !isPidAlive(onDisk.lock.pid)) return 'dead';
  // The pid lives, but as another process: the holder died and its pid was given to someone else.
  const recorded = onDisk.lock.processStartTime;
  if (here && recorded !== undefined) {
    const current = startTimeOf(onDisk.lock.pid);
    if (current !== undefined && current !== recorded) return 'dead';
  }
  const heartbeat = Date.parse(onDisk.lock.lastHeartbeat);
  const beat = Number.isNaN(heartbeat) ? onDisk.mtimeMs : heartbeat;
  return now - beat > staleAfterMs ? 'stale' : 'live';
};

/**
 * Writes `text` to `path` in place with mode 0600; with `exclusive` (`O_EXCL`), fails with
 * EEXIST if it exists. For files created once (a lock's first write, the takeover marker);
 * replacing a lock goes through `writeFileAtomic`. With `sync`, the data is fsynced; making the
 * name durable (a directory fsync) is the caller's part.
 */
export const writePrivateFile = async (
  fs: Fs,
  path: string,
  text: string,
  options: { exclusive: boolean; sync: boolean },
): Promise<void> => {
  const handle = await fs.open(path, options.exclusive ? 'wx' : 'w', 0o600);
  try {
    await handle.writeFile(text);
    if (options.sync) await handle.sync();
  } finally {
    await handle.close();
  }
};

/**
 * Deletes `runtime.lock.<id>.tmp` files older than `olderThanMs`: left by processes killed while
 * writing their lock. Best effort: errors are ignored (another process may be cleaning too).
 */
export const removeLeftoverLockTemps = async (
  fs: Fs,
  dir: string,
  lockName: string,
  now: number,
  olderThanMs: number,
): Promise<number> => {
  let removed = 0;
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.name.startsWith(`${lockName}.`) || !entry.name.endsWith('.tmp')) continue;
      const path = `${dir}/${entry.name}`;
      try {
        if (now - (await fs.stat(path)).mtimeMs <= olderThanMs) continue;
        await fs.unlink(path);
        removed++;
      } catch {
        // Gone already, or not ours to delete: either way nothing to do.
      }
    }
  } catch {
    // Listing failed: leftovers stay until the next acquisition.
  }
  return removed;
};

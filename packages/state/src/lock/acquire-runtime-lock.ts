import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { type Fs, hasErrno, ignoreMissing, nodeFs, syncDirectory } from '@hankweave/durable-io';
import type { RuntimeLock } from '@hankweave/types';
import { stateError } from '../errors.js';
import { type IsPidAlive, processWarningLogger, type StateIoOptions } from '../options.js';
import { statePaths } from '../paths.js';
import {
  asLockError,
  type LockOnDisk,
  lockHolderStatus,
  readLockFile,
  removeLeftoverLockTemps,
  writePrivateFile,
} from './lock-file.js';
import { isPidAlive as defaultIsPidAlive, processStartTime } from './pid.js';
import {
  type PreviousLockHolder,
  type RuntimeLockFields,
  RuntimeLockHandle,
} from './runtime-lock-handle.js';

/** Heartbeat period of seed 001 / reference §5.2. */
export const LOCK_HEARTBEAT_MS = 30_000;
/** A lock whose heartbeat is older than this is stale (reference §5.2). */
export const LOCK_STALE_AFTER_MS = 120_000;
// A takeover marker older than this belongs to a process that died mid-takeover.
const TAKEOVER_STALE_MS = 10_000;
const ATTEMPTS = 5;

/** Options of {@link acquireRuntimeLock}. */
export interface AcquireRuntimeLockOptions extends StateIoOptions {
  /** The run this process executes (default null; set it later with `update`). */
  runId?: string | null;
  /** Default `process.pid`. */
  pid?: number;
  isPidAlive?: IsPidAlive;
  /** Default 30 000; 0 disables the timer (call `heartbeat()` yourself). */
  heartbeatIntervalMs?: number;
  /** Default 120 000. */
  staleAfterMs?: number;
  /** Extra fields written with the lock: `port`, `proxyPort`, `host`, `token`, ... */
  fields?: RuntimeLockFields;
  /** Called once if another process takes the lock over. */
  onLost?: (onDisk: RuntimeLock | undefined) => void;
}

// Link-based creation publishes a complete, fsynced file in one step and fails with EEXIST when
// the lock exists (link never replaces, like O_EXCL); `wx` is the fallback where the file system
// has no hard links (the file then exists briefly while being written). The directory fsync at
// the end makes the new name durable before the acquisition resolves: a power loss cannot take
// away a lock this process already acts on. When a step after the lock appeared fails, the lock
// is removed again: held by nobody, with this live pid in it, it would keep every server out
// (this one's retry included) until the process exits.
const createExclusive = async (fs: Fs, path: string, temp: string, text: string): Promise<void> => {
  await writePrivateFile(fs, temp, text, { exclusive: false, sync: true });
  let created = false;
  try {
    try {
      await fs.link(temp, path);
      created = true;
    } catch (error) {
      if (hasErrno(error, 'EEXIST')) throw error;
      const handle = await fs.open(path, 'wx', 0o600);
      created = true;
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    await ignoreMissing(fs.unlink(temp));
    await syncDirectory(dirname(path), { fs });
  } catch (error) {
    if (created) await ignoreMissing(fs.unlink(path)).catch(() => undefined);
    await ignoreMissing(fs.unlink(temp)).catch(() => undefined);
    throw error;
  }
};

/**
 * Removes a dead or stale lock, unless someone else changed it meanwhile. A `runtime.lock.takeover`
 * marker (created with `wx`) makes the check-and-delete exclusive, so two processes that both saw
 * the same stale lock cannot delete each other's fresh one.
 */
const removeStaleLock = async (
  fs: Fs,
  path: string,
  seen: LockOnDisk,
  now: number,
  isPidAlive: IsPidAlive,
): Promise<void> => {
  const marker = `${path}.takeover`;
  try {
    await writePrivateFile(fs, marker, String(process.pid), { exclusive: true, sync: false });
  } catch (error) {
    if (!hasErrno(error, 'EEXIST')) throw error;
    // Someone is taking over right now, or died doing it: clear a dead taker's marker at once.
    const taker = await readLockFile(fs, marker);
    const takerPid = Number(taker?.text);
    if (taker !== undefined && (now - taker.mtimeMs > TAKEOVER_STALE_MS || !isPidAlive(takerPid))) {
      await ignoreMissing(fs.unlink(marker));
    }
    return; // The caller looks again.
  }
  try {
    const again = await readLockFile(fs, path);
    if (again?.text === seen.text) await ignoreMissing(fs.unlink(path));
  } finally {
    await ignoreMissing(fs.unlink(marker));
  }
};

const describeHolder = (onDisk: LockOnDisk, now: number): string => {
  const lock = onDisk.lock;
  if (lock === undefined) return 'an unreadable runtime.lock written moments ago';
  const seconds = Math.round((now - Date.parse(lock.lastHeartbeat)) / 1000);
  return `pid ${lock.pid} (run ${lock.runId ?? 'none'}, last heartbeat ${seconds} s ago)`;
};

/**
 * Acquires `.hankweave/runtime.lock` (seed 001) atomically, with a fresh `lockId`, mode 0600.
 * A lock whose pid is dead or whose heartbeat is older than `staleAfterMs` is taken over and its
 * holder reported in `handle.previous`; a live holder makes this fail.
 *
 * @throws {StateError} STATE_LOCKED when another live process holds the lock (details: `pid`,
 *   `runId`, `lastHeartbeat`), or a lock file written moments ago cannot be read yet.
 * @throws {StateError} STATE_LOCK_FAILED when the lock cannot be written, or keeps changing.
 */
export const acquireRuntimeLock = async (
  hankweaveDir: string,
  options: AcquireRuntimeLockOptions = {},
): Promise<RuntimeLockHandle> => {
  const fs = options.fs ?? nodeFs;
  const clock = options.clock ?? (() => new Date());
  const staleAfterMs = options.staleAfterMs ?? LOCK_STALE_AFTER_MS;
  const alive = options.isPidAlive ?? defaultIsPidAlive;
  const path = statePaths(hankweaveDir).lock;
  const lockId = randomUUID();
  let previous: PreviousLockHolder | undefined;
  try {
    await fs.mkdir(hankweaveDir, { recursive: true });
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const at = clock().toISOString();
      const pid = options.pid ?? process.pid;
      const started = processStartTime(pid);
      const lock = {
        ...options.fields,
        pid,
        hostname: hostname(),
        // With the pid, names this process for good (pids are reused): kill, sessions --check
        // and the next takeover compare it before they trust the pid.
        ...(started !== undefined && { processStartTime: started }),
        runId: options.runId ?? null,
        startTime: at,
        lastHeartbeat: at,
        lockId,
      };
      try {
        await createExclusive(fs, path, `${path}.${lockId}.tmp`, JSON.stringify(lock, null, 2));
        await removeLeftoverLockTemps(
          fs,
          hankweaveDir,
          'runtime.lock',
          clock().getTime(),
          TAKEOVER_STALE_MS,
        );
        return new RuntimeLockHandle({
          fs,
          path,
          lock,
          previous,
          clock,
          logger: options.logger ?? processWarningLogger,
          heartbeatIntervalMs: options.heartbeatIntervalMs ?? LOCK_HEARTBEAT_MS,
          onLost: options.onLost,
        });
      } catch (error) {
        if (!hasErrno(error, 'EEXIST')) throw error;
      }
      const onDisk = await readLockFile(fs, path);
      if (onDisk === undefined) continue; // Released meanwhile: try again.
      const now = clock().getTime();
      const status = lockHolderStatus(onDisk, now, staleAfterMs, alive);
      if (status === 'live' || status === 'unreadable') {
        throw stateError(
          'STATE_LOCKED',
          `Another hankweave server holds ${path}: ${describeHolder(onDisk, now)}. Stop it ` +
            `first; a crashed holder is taken over once its pid is gone or its heartbeat is older than ${staleAfterMs / 1000} s.`,
          {
            path,
            pid: onDisk.lock?.pid ?? null,
            runId: onDisk.lock?.runId ?? null,
            lastHeartbeat: onDisk.lock?.lastHeartbeat ?? null,
            status,
          },
        );
      }
      previous = { reason: status, lock: onDisk.lock };
      await removeStaleLock(fs, path, onDisk, now, alive);
    }
  } catch (error) {
    throw asLockError(error, path, 'write');
  }
  throw stateError(
    'STATE_LOCK_FAILED',
    `${path} kept changing while this process tried to take it over; another server is starting. Try again.`,
    { path },
  );
};

/**
 * Reads `runtime.lock` without taking it, for tools that ask "is a server running here?".
 * Resolves undefined when there is no lock or it does not parse.
 * @throws {StateError} STATE_LOCK_FAILED when the file exists but cannot be read.
 */
export const readRuntimeLock = async (
  hankweaveDir: string,
  options: { fs?: Fs } = {},
): Promise<RuntimeLock | undefined> => {
  const path = statePaths(hankweaveDir).lock;
  try {
    return (await readLockFile(options.fs ?? nodeFs, path))?.lock;
  } catch (error) {
    throw asLockError(error, path, 'read');
  }
};

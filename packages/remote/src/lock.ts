import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errnoCode, sleep } from '@hankweave/durable-io';
import { RemoteError } from './errors.js';

/** A lock older than this is taken over whoever holds it (a fetch never takes this long). */
const STALE_MS = 10 * 60 * 1000;

/**
 * Runs `work` holding `<dir>/lock` (a directory: `mkdir` is atomic), so concurrent runs of one
 * repository fetch and check out one at a time. A lock whose owner process is gone (same host)
 * or that is older than 10 minutes is taken over.
 *
 * @throws {RemoteError} REMOTE_LOCK_TIMEOUT after `timeoutMs` of waiting.
 */
export async function withRepositoryLock<T>(
  dir: string,
  timeoutMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const lock = join(dir, 'lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
    if (await isStale(lock)) {
      // Moved aside first, so two takers cannot both remove a lock a third has just made.
      const aside = `${lock}.stale-${process.pid}-${Date.now()}`;
      await rename(lock, aside).then(
        () => rm(aside, { recursive: true, force: true }),
        () => undefined,
      );
      continue;
    }
    if (Date.now() > deadline) {
      throw new RemoteError(
        'REMOTE_LOCK_TIMEOUT',
        `Another hankweave process has held ${lock} for over ${Math.round(timeoutMs / 1000)} s; wait for it, or remove that directory if no hankweave is running`,
        { details: { lock } },
      );
    }
    await sleep(50 + Math.random() * 100);
  }
  await writeFile(
    join(lock, 'owner.json'),
    JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }),
  );
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function isStale(lock: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown; at?: unknown };
  try {
    owner = JSON.parse(await readFile(join(lock, 'owner.json'), 'utf8'));
  } catch {
    // Just made and its owner file not yet written, or its maker died in between: stale when
    // the directory is older than 30 s.
    const made = await stat(lock).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    return Date.now() - made > 30_000;
  }
  const at = typeof owner.at === 'string' ? Date.parse(owner.at) : Number.NaN;
  if (!Number.isNaN(at) && Date.now() - at > STALE_MS) return true;
  if (owner.host === hostname() && typeof owner.pid === 'number') {
    try {
      process.kill(owner.pid, 0);
    } catch (error) {
      return errnoCode(error) === 'ESRCH';
    }
  }
  return false;
}

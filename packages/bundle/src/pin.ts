import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import { BundleError } from './errors.js';
import { collectHankFiles } from './hank-files.js';
import { type HankLock, LOCK_FILE } from './lock.js';
import { parseLock } from './verify.js';

/** One way a pinned hank directory differs from its hank.lock. */
export interface PinDrift {
  file: string;
  change: 'changed' | 'missing' | 'added' | 'mode';
}

/**
 * Verifies a hank directory against the hank.lock beside its hank.json, when there is one: the
 * directory's files (after the same ignore rules `pack` uses) must be exactly the locked ones,
 * byte for byte. Returns the lock, or undefined when the directory has no hank.lock.
 *
 * @throws {BundleError} BUNDLE_DRIFT naming the first file that differs (all in
 *   `details.drift`); BUNDLE_LOCK_INVALID when hank.lock is not a valid lock.
 */
export function verifyPinnedHank(hankDir: string): HankLock | undefined {
  const lockPath = join(hankDir, LOCK_FILE);
  if (!existsSync(lockPath)) return undefined;
  let text: string;
  try {
    text = readRegularFileSync(lockPath).toString('utf8');
  } catch (error) {
    throw new BundleError(
      'BUNDLE_LOCK_INVALID',
      `cannot read ${lockPath}: ${(error as Error).message}`,
      {
        details: { file: lockPath },
        cause: error,
      },
    );
  }
  const lock = parseLock(text, lockPath);
  const drift = pinDrift(hankDir, lock);
  const [first] = drift;
  if (first) {
    const what = {
      changed: 'changed',
      missing: 'is missing',
      added: 'is new',
      mode: 'changed mode',
    }[first.change];
    throw new BundleError(
      'BUNDLE_DRIFT',
      `${first.file} ${what} since hank.lock was written${drift.length > 1 ? ` (and ${drift.length - 1} more)` : ''}`,
      { details: { file: first.file, drift } },
    );
  }
  return lock;
}

/** Every difference between a hank directory and a lock (empty when it matches). */
export function pinDrift(hankDir: string, lock: HankLock): PinDrift[] {
  const collected = collectHankFiles(hankDir);
  const drift: PinDrift[] = [];
  const present = new Map(collected.files.map((file) => [file.path, file]));
  for (const [path, entry] of Object.entries(lock.files)) {
    const file = present.get(path);
    if (!file) drift.push({ file: path, change: 'missing' });
    else if (file.sha256 !== entry.sha256) drift.push({ file: path, change: 'changed' });
    else if (file.mode !== entry.mode) drift.push({ file: path, change: 'mode' });
  }
  for (const path of present.keys())
    if (!Object.hasOwn(lock.files, path)) drift.push({ file: path, change: 'added' });
  return drift;
}

import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import type { BundleMember } from './archive.js';
import { BundleError } from './errors.js';
import {
  compareSemVer,
  computeBundleHash,
  type HankLock,
  hankLockSchema,
  LOCK_FILE,
  sha256Hex,
} from './lock.js';

/** Parses hank.lock's text. @throws {BundleError} BUNDLE_LOCK_INVALID naming `where`. */
export function parseLock(text: string, where = LOCK_FILE): HankLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BundleError('BUNDLE_LOCK_INVALID', `${where} is not JSON`, {
      details: { file: where },
      cause: error,
    });
  }
  const parsed = hankLockSchema.safeParse(value);
  if (!parsed.success) {
    throw new BundleError(
      'BUNDLE_LOCK_INVALID',
      `${where} is not a valid hank.lock: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
      { details: { file: where }, cause: parsed.error },
    );
  }
  const lock = parsed.data;
  for (const path of Object.keys(lock.files)) {
    const parts = path.split('/');
    if (
      path.startsWith('/') ||
      path.includes('\\') ||
      path.includes('\0') ||
      parts.some((part) => part === '' || part === '.' || part === '..') ||
      path === LOCK_FILE
    ) {
      throw new BundleError('BUNDLE_LOCK_INVALID', `${where} lists an unsafe path: ${path}`, {
        details: { file: path },
      });
    }
  }
  if (!Object.hasOwn(lock.files, 'hank.json'))
    throw new BundleError('BUNDLE_LOCK_INVALID', `${where} lists no hank.json`, {
      details: { file: LOCK_FILE },
    });
  if (computeBundleHash(lock.files, lock.runtime) !== lock.bundleHash) {
    throw new BundleError(
      'BUNDLE_LOCK_INVALID',
      `${where}: bundleHash is not the hash of its files (the lock was edited by hand?)`,
      { details: { file: LOCK_FILE } },
    );
  }
  return lock;
}

/** Refuses a lock whose `runtime.min` is newer than `runtimeVersion`. */
export function checkRuntimeVersion(lock: HankLock, runtimeVersion: string): void {
  if (compareSemVer(lock.runtime.min, runtimeVersion) > 0) {
    throw new BundleError(
      'BUNDLE_RUNTIME_TOO_OLD',
      `the bundle needs a runtime at ${lock.runtime.min} or newer; this one runs ${runtimeVersion}`,
      { details: { file: LOCK_FILE, min: lock.runtime.min } },
    );
  }
}

/**
 * Checks a bundle's members against its lock: hank.lock first, every locked file present with
 * its bytes and mode, nothing else. @throws {BundleError} BUNDLE_TAMPERED naming the file.
 */
export function verifyMembers(members: readonly BundleMember[]): HankLock {
  const [first, ...rest] = members;
  if (first?.path !== LOCK_FILE)
    throw new BundleError('BUNDLE_INVALID', 'hank.lock is not the first member of the bundle', {
      details: { file: LOCK_FILE },
    });
  const lock = parseLock(first.bytes.toString('utf8'));
  const byPath = new Map(rest.map((member) => [member.path, member]));
  for (const [path, entry] of Object.entries(lock.files)) {
    const member = byPath.get(path);
    if (!member) throw tampered(path, 'is in hank.lock but missing from the bundle');
    const actual = sha256Hex(member.bytes);
    if (actual !== entry.sha256)
      throw tampered(path, `does not match hank.lock (sha256 ${actual}, locked ${entry.sha256})`);
    if (member.mode !== entry.mode)
      throw tampered(path, `has mode ${member.mode}, hank.lock says ${entry.mode}`);
  }
  for (const member of rest)
    if (!Object.hasOwn(lock.files, member.path))
      throw tampered(member.path, 'is in the bundle but not in hank.lock');
  return lock;
}

function tampered(file: string, what: string): BundleError {
  return new BundleError('BUNDLE_TAMPERED', `${file} ${what}`, { details: { file } });
}

/**
 * Checks an extracted tree against its lock without following a link: every locked file with its
 * bytes and mode, hank.lock itself, and nothing else (no extra file, link or special file).
 * Returns the first difference (the file and what), or undefined when the tree is the bundle.
 */
export function treeDifference(
  dir: string,
  lock: HankLock,
  lockText?: string,
): { file: string; problem: string } | undefined {
  const seen = new Set<string>();
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return { file: rel || '.', problem: 'cannot be read' };
    }
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) pending.push(path);
      else if (!entry.isFile()) return { file: path, problem: 'is not a regular file' };
      else seen.add(path);
    }
  }
  for (const path of seen)
    if (path !== LOCK_FILE && !Object.hasOwn(lock.files, path))
      return { file: path, problem: 'is not in hank.lock' };
  for (const [path, entry] of Object.entries(lock.files)) {
    if (!seen.has(path)) return { file: path, problem: 'is missing' };
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(join(dir, path));
    } catch {
      return { file: path, problem: 'cannot be read' };
    }
    if (sha256Hex(bytes) !== entry.sha256) return { file: path, problem: 'changed' };
    const mode = (lstatSync(join(dir, path)).mode & 0o111) !== 0 ? '755' : '644';
    if (mode !== entry.mode) return { file: path, problem: `has mode ${mode}, not ${entry.mode}` };
  }
  if (lockText !== undefined) {
    if (!seen.has(LOCK_FILE)) return { file: LOCK_FILE, problem: 'is missing' };
    try {
      if (readRegularFileSync(join(dir, LOCK_FILE)).toString('utf8') !== lockText)
        return { file: LOCK_FILE, problem: 'changed' };
    } catch {
      return { file: LOCK_FILE, problem: 'cannot be read' };
    }
  }
  return undefined;
}

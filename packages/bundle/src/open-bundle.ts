import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import { type BundleMember, readBundleArchive } from './archive.js';
import { BundleError } from './errors.js';
import { type HankLock, LOCK_FILE } from './lock.js';
import { RUNTIME_COMPAT_VERSION } from './pack.js';
import { checkRuntimeVersion, treeDifference, verifyMembers } from './verify.js';

/** The largest bundle file read (compressed). */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

/** Options of {@link openBundle}. */
export interface OpenBundleOptions {
  /** Where extracted bundles live (default {@link defaultBundleCacheDir}). */
  cacheDir?: string;
  /** The version `runtime.min` is checked against (default {@link RUNTIME_COMPAT_VERSION}). */
  runtimeVersion?: string;
  /** Default `process.env` (for the cache directory). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A verified bundle, extracted. */
export interface OpenedBundle {
  /** The absolute path of the bundle file. */
  bundlePath: string;
  bundleHash: string;
  lock: HankLock;
  /** The extracted hank directory: `<cacheDir>/<bundleHash>`. */
  hankDir: string;
  hankPath: string;
  /** `fresh`: extracted now; `reused`: the verified tree was there; `repaired`: it was not the bundle and was extracted again. */
  extraction: 'fresh' | 'reused' | 'repaired';
}

/**
 * Where extracted bundles live: `$HANKWEAVE_CACHE_DIR/bundles`, else
 * `$XDG_CACHE_HOME/hankweave/bundles`, else `~/.cache/hankweave/bundles`.
 */
export function defaultBundleCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (env.HANKWEAVE_CACHE_DIR) return join(resolve(env.HANKWEAVE_CACHE_DIR), 'bundles');
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
  return join(base, 'hankweave', 'bundles');
}

/** True when `path` names a bundle by its suffix (`.hank` or `.tar.zst`). */
export function isBundlePath(path: string): boolean {
  return path.endsWith('.hank') || path.endsWith('.tar.zst');
}

/**
 * Opens a `.hank` bundle to run it: reads and verifies every member against the bundle's
 * hank.lock (before anything is written), checks `runtime.min`, then extracts it once into
 * `<cacheDir>/<bundleHash>`: into a private staging directory, renamed into place, so a
 * half-extracted tree is never used. A tree already there is verified (every file's hash and
 * mode, nothing extra, no link) before reuse, and extracted again when it is not the bundle.
 *
 * @throws {BundleError} BUNDLE_INVALID, BUNDLE_LOCK_INVALID, BUNDLE_TAMPERED,
 *   BUNDLE_UNSAFE_ENTRY (naming the file), BUNDLE_RUNTIME_TOO_OLD, BUNDLE_IO.
 */
export async function openBundle(
  bundlePath: string,
  options: OpenBundleOptions = {},
): Promise<OpenedBundle> {
  const absolute = resolve(bundlePath);
  let bytes: Buffer;
  try {
    if (statSync(absolute).size > MAX_BUNDLE_BYTES)
      throw new Error(`larger than ${MAX_BUNDLE_BYTES} bytes`);
    bytes = readRegularFileSync(absolute);
  } catch (error) {
    throw new BundleError('BUNDLE_IO', `cannot read ${absolute}: ${(error as Error).message}`, {
      details: { file: absolute },
      cause: error,
    });
  }
  const members = await readBundleArchive(bytes);
  const lock = verifyMembers(members);
  checkRuntimeVersion(lock, options.runtimeVersion ?? RUNTIME_COMPAT_VERSION);
  const lockText = (members[0] as BundleMember).bytes.toString('utf8');
  const cacheDir = options.cacheDir ?? defaultBundleCacheDir(options.env);
  const hankDir = join(cacheDir, lock.bundleHash);
  const extraction = extract(members, lock, lockText, cacheDir, hankDir);
  return {
    bundlePath: absolute,
    bundleHash: lock.bundleHash,
    lock,
    hankDir,
    hankPath: join(hankDir, 'hank.json'),
    extraction,
  };
}

function extract(
  members: readonly BundleMember[],
  lock: HankLock,
  lockText: string,
  cacheDir: string,
  hankDir: string,
): OpenedBundle['extraction'] {
  const existed = existsSync(hankDir);
  if (existed && treeDifference(hankDir, lock, lockText) === undefined) return 'reused';
  let staging: string;
  try {
    mkdirSync(cacheDir, { recursive: true });
    staging = join(
      cacheDir,
      `.staging-${lock.bundleHash.slice(0, 16)}-${randomBytes(6).toString('hex')}`,
    );
    mkdirSync(staging, { mode: 0o700 });
  } catch (error) {
    throw new BundleError('BUNDLE_IO', `cannot create ${cacheDir}: ${(error as Error).message}`, {
      details: { file: cacheDir },
      cause: error,
    });
  }
  let current = LOCK_FILE;
  try {
    for (const member of members) {
      current = member.path;
      const target = join(staging, ...member.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      const mode = member.mode === '755' ? 0o755 : 0o644;
      // Exclusive: an entry can never write through something already there.
      const fd = openSync(target, 'wx', mode);
      try {
        writeSync(fd, member.bytes);
      } finally {
        closeSync(fd);
      }
      chmodSync(target, mode);
    }
    chmodSync(staging, 0o755);
    if (existed) {
      // Re-check: another run may have repaired it meanwhile.
      if (treeDifference(hankDir, lock, lockText) === undefined) {
        rmSync(staging, { recursive: true, force: true });
        return 'reused';
      }
      rmSync(hankDir, { recursive: true, force: true });
    }
    try {
      renameSync(staging, hankDir);
    } catch (error) {
      // Another run published the same bundle first: its tree is used when it verifies.
      rmSync(staging, { recursive: true, force: true });
      if (treeDifference(hankDir, lock, lockText) === undefined) return 'reused';
      throw error;
    }
    return existed ? 'repaired' : 'fresh';
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (BundleError.is(error)) throw error;
    throw new BundleError(
      'BUNDLE_IO',
      `extracting ${current} failed: ${(error as Error).message}`,
      {
        details: { file: current },
        cause: error,
      },
    );
  }
}

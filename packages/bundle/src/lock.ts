import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';

/** The format version of hank.lock and of the bundle layout (`v`). */
export const LOCK_FORMAT_VERSION = 1;

/** The name of the lock: the first member of a bundle, and the file that pins a hank directory. */
export const LOCK_FILE = 'hank.lock';

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex');

/** One file of a bundle: its normalized mode (the executable bit) and content hash. */
export const lockFileEntrySchema = z.strictObject({ mode: z.enum(['644', '755']), sha256 });

/**
 * hank.lock, the same shape as the original runtime's (strict: an unknown field is a newer or
 * broken lock, refused). `bundleHash`, `files` and `runtime` are the bundle's identity;
 * `name`, `version`, `codonInputs` and `ignoreDefaults` are derived and informative.
 */
export const hankLockSchema = z.strictObject({
  v: z.literal(LOCK_FORMAT_VERSION),
  name: z.string().min(1),
  version: z.string().min(1),
  bundleHash: sha256,
  files: z.record(z.string().min(1), lockFileEntrySchema),
  codonInputs: z.record(z.string().min(1), sha256),
  runtime: z.strictObject({ min: z.string().regex(SEMVER, 'a SemVer version (1.2.3)') }),
  ignoreDefaults: sha256,
});

/** A parsed hank.lock. */
export type HankLock = z.infer<typeof hankLockSchema>;
/** One entry of {@link HankLock}`.files`. */
export type LockFileEntry = z.infer<typeof lockFileEntrySchema>;

/** sha256 of bytes or text, lowercase hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The bundle's identity: sha256 of `hankweave-bundle-v1\0` and the canonical JSON of
 * `{v, files, runtime}` (the original's definition, so its locks verify here). Never the archive
 * bytes: the same files give the same hash whatever compressed them.
 */
export function computeBundleHash(
  files: Readonly<Record<string, LockFileEntry>>,
  runtime: { min: string },
): string {
  return sha256Hex(`hankweave-bundle-v1\0${canonicalJson({ v: 1, files, runtime })}`);
}

/** hank.lock's text: canonical JSON and one newline. */
export function serializeLock(lock: HankLock): string {
  return `${canonicalJson(lock)}\n`;
}

/** True when `version` is a SemVer 2.0.0 version. */
export function isSemVer(version: string): boolean {
  return SEMVER.test(version);
}

/** Compares two SemVer versions by major, minor, patch (a prerelease sorts before its release). */
export function compareSemVer(a: string, b: string): number {
  const parse = (text: string) => {
    const match = SEMVER.exec(text);
    return match ? [Number(match[1]), Number(match[2]), Number(match[3]), match[4] ? 0 : 1] : [];
  };
  const [left, right] = [parse(a), parse(b)];
  for (let index = 0; index < 4; index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

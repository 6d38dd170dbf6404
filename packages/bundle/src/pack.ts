import { type BundleMember, writeBundleArchive } from './archive.js';
import { BundleError } from './errors.js';
import {
  collectHankFiles,
  computeCodonInputs,
  type HankFiles,
  IGNORE_DEFAULTS_FINGERPRINT,
  type PackFinding,
} from './hank-files.js';
import {
  computeBundleHash,
  type HankLock,
  hankLockSchema,
  isSemVer,
  LOCK_FILE,
  LOCK_FORMAT_VERSION,
  type LockFileEntry,
  serializeLock,
} from './lock.js';

/**
 * The version of the original runtime's behaviour this implementation runs (its `runtime.min`
 * scale: a lock is checked against this, not against this package's own version). The original
 * introduced bundles after v0.10.0.
 */
export const RUNTIME_COMPAT_VERSION = '0.11.0';

/** Options of {@link packHank} and {@link checkHank}. */
export interface PackOptions {
  /** `runtime.min` of the lock (default {@link RUNTIME_COMPAT_VERSION}). */
  minRuntime?: string;
  /** A file larger than this is a `too_large` error (default 100 MiB). */
  maxFileBytes?: number;
  /** Paths relative to the hank directory left out (the bundle's own path when it is inside). */
  exclude?: readonly string[];
}

/** What {@link packHank} made. */
export interface PackedHank {
  /** The bundle: zstd-compressed tar, hank.lock first. */
  archive: Buffer;
  lock: HankLock;
  /** hank.lock's text (the bundle's first member, and the file written beside hank.json). */
  lockText: string;
  /** Warnings only (errors refuse the pack). */
  findings: PackFinding[];
  /** How many files the bundle holds besides hank.lock. */
  fileCount: number;
  rules: HankFiles['rules'];
  skipped: number;
}

/**
 * Lints a hank directory for portability without writing anything: absolute paths, references
 * outside the directory or missing, links, special files, files over the size limit, names that
 * collide on case-insensitive file systems, names Windows refuses, and ignored files the hank
 * names (packed anyway, a warning).
 */
export function checkHank(hankDir: string, options: PackOptions = {}): HankFiles {
  return collectHankFiles(hankDir, {
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
}

/**
 * Packs a hank directory into a deterministic bundle: the same files (paths, bytes, executable
 * bits) give the same bytes, whatever their mtimes, owners or the order the disk lists them in.
 * The files are the directory's after its ignore rules (the hank's .gitignore, or the defaults
 * of `@hankweave/files`), plus the ignored files hank.json names.
 *
 * @throws {BundleError} BUNDLE_NOT_PORTABLE when the lint finds an error (`details.findings`);
 *   BUNDLE_IO when hank.json cannot be read.
 */
export async function packHank(hankDir: string, options: PackOptions = {}): Promise<PackedHank> {
  const minRuntime = options.minRuntime ?? RUNTIME_COMPAT_VERSION;
  if (!isSemVer(minRuntime))
    throw new BundleError('BUNDLE_LOCK_INVALID', `${minRuntime} is not a SemVer version (1.2.3)`);
  const collected = checkHank(hankDir, options);
  const errors = collected.findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) {
    throw new BundleError(
      'BUNDLE_NOT_PORTABLE',
      `${errors.length} portability error(s), first: ${errors[0]?.path} ${errors[0]?.message}`,
      { details: { findings: collected.findings } },
    );
  }
  const files: Record<string, LockFileEntry> = {};
  for (const file of collected.files) files[file.path] = { mode: file.mode, sha256: file.sha256 };
  const runtime = { min: minRuntime };
  const bundleHash = computeBundleHash(files, runtime);
  const meta = (collected.raw.meta ?? {}) as Record<string, unknown>;
  const lock = hankLockSchema.parse({
    v: LOCK_FORMAT_VERSION,
    name:
      typeof meta.name === 'string' && meta.name !== ''
        ? meta.name
        : `hank-${bundleHash.slice(0, 12)}`,
    version: typeof meta.version === 'string' && meta.version !== '' ? meta.version : '0.0.0',
    bundleHash,
    files,
    codonInputs: computeCodonInputs(collected.raw, collected.files),
    runtime,
    ignoreDefaults: IGNORE_DEFAULTS_FINGERPRINT,
  });
  const lockText = serializeLock(lock);
  const members: BundleMember[] = [
    { path: LOCK_FILE, mode: '644', bytes: Buffer.from(lockText, 'utf8') },
    ...collected.files.map((file) => ({ path: file.path, mode: file.mode, bytes: file.bytes })),
  ];
  return {
    archive: await writeBundleArchive(members),
    lock,
    lockText,
    findings: collected.findings,
    fileCount: collected.files.length,
    rules: collected.rules,
    skipped: collected.skipped,
  };
}

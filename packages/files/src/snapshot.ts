import type { BigIntStats } from 'node:fs';
import { resolve } from 'node:path';
import { errnoCode, type Fs, isMissing } from '@hankweave/durable-io';
import type { FilesWarning } from './errors.js';
import { hashFileSync } from './hash-file.js';
import { compareUtf8 } from './internal/compare-paths.js';
import type { ListingCache } from './internal/listing-cache.js';
import { nowNs, racyThreshold } from './internal/racy.js';
import { resolverInternals, UnifiedFileResolver } from './unified-file-resolver.js';

/** What one file looked like at a scan (from `lstat`, never following symlinks). */
export interface FileStat {
  readonly kind: 'file' | 'symlink';
  /** Bytes (for a symlink: the length of its target text). */
  readonly size: number;
  /** `st_mode`: type and permission bits. */
  readonly mode: number;
  readonly ino: bigint;
  /** Modification time in whole ms, for display and `FileNode.lastModified`. */
  readonly mtimeMs: number;
  /** Modification time in ns; the comparison uses this, not `mtimeMs`. */
  readonly mtimeNs: bigint;
  /** Status-change time in ns; catches writes that restore the mtime (as git does). */
  readonly ctimeNs: bigint;
  /**
   * sha256 of the content, present only when the stat alone could not be trusted: the file was
   * modified within the racy window of the scan, or the previous scan had to hash it.
   */
  readonly racyHash?: string;
}

/** Path (POSIX, relative to the root) → stat, in git's path order. In memory only (bigints). */
export type FileSnapshot = ReadonlyMap<string, FileStat>;

/** Options of {@link snapshot}. */
export interface SnapshotOptions {
  /** The resolver to use (and whose caches to share); default a new one. */
  readonly resolver?: UnifiedFileResolver;
  /** The previous snapshot: files it had to hash are hashed again when their stat is unchanged. */
  readonly previous?: FileSnapshot;
  /** Called for each warning of the walk or of the stats. */
  readonly onWarning?: (warning: FilesWarning) => void;
}

/** One entry of {@link FileChanges}. */
export interface FileChange {
  readonly path: string;
  /** The stat in the earlier snapshot; absent for created files. */
  readonly before?: FileStat;
  /** The stat in the later snapshot; absent for deleted files. */
  readonly after?: FileStat;
}

/** The result of {@link diff}, each list sorted by path. */
export interface FileChanges {
  readonly created: FileChange[];
  readonly modified: FileChange[];
  readonly deleted: FileChange[];
}

/**
 * Resolves `patterns` under `root` and lstats every match. Files whose mtime is within the racy
 * window of the scan are hashed as well, so a same-size rewrite within the file system's
 * timestamp granularity is still caught by the next scan that passes this one as `previous`.
 */
export function snapshot(
  root: string,
  patterns: readonly string[],
  options: SnapshotOptions = {},
): FileSnapshot {
  const resolver = options.resolver ?? new UnifiedFileResolver();
  const warnings: FilesWarning[] = [];
  const result = scanFiles(resolver, root, patterns, options.previous, undefined, warnings);
  for (const warning of warnings) options.onWarning?.(warning);
  return result;
}

/** Package-internal: the scan behind {@link snapshot} and `ChangeScanner`. */
export function scanFiles(
  resolver: UnifiedFileResolver,
  root: string,
  patterns: readonly string[],
  previous: FileSnapshot | undefined,
  listings: ListingCache | undefined,
  warnings: FilesWarning[],
): Map<string, FileStat> {
  const internals = resolverInternals(resolver);
  const racyFrom = racyThreshold(nowNs(), internals.racyWindowNs);
  const resolved = internals.run(root, patterns, listings);
  warnings.push(...resolved.warnings);
  const rootAbs = resolve(root);
  const prefix = rootAbs.endsWith('/') ? rootAbs : `${rootAbs}/`;
  const files = new Map<string, FileStat>();
  for (const path of resolved.paths) {
    const stat = statFile(
      internals.fs,
      rootAbs,
      prefix,
      path,
      previous?.get(path),
      racyFrom,
      warnings,
    );
    if (stat) files.set(path, stat);
  }
  return files;
}

/**
 * The stat of one listed path for a scan, or undefined when it is gone or no longer a file or
 * symlink. `before` is its stat in the previous scan; `racyFrom` the racy threshold of this scan.
 */
export function statFile(
  fs: Fs,
  rootAbs: string,
  prefix: string,
  path: string,
  before: FileStat | undefined,
  racyFrom: bigint,
  warnings: FilesWarning[],
): FileStat | undefined {
  const stats = lstatOrWarn(fs, prefix + path, path, warnings);
  if (!stats || (!stats.isFile() && !stats.isSymbolicLink())) return undefined;
  const racy = stats.mtimeNs >= racyFrom;
  // The common case of a rescan: nothing changed, nothing to verify. Reusing the previous
  // object saves an allocation per file and lets diff() skip the comparison.
  if (before && !racy && before.racyHash === undefined && unchanged(before, stats)) return before;
  const stat = toFileStat(stats);
  let racyHash: string | undefined;
  if (racy) {
    racyHash = hashOrUndefined(rootAbs, path, warnings);
  } else if (before?.racyHash !== undefined && sameStat(before, stat)) {
    // Verify the content the stat cannot vouch for. Once verified and no longer racy, the
    // file needs no hash next time; a differing hash is kept so that diff() reports it.
    const hash = hashOrUndefined(rootAbs, path, warnings);
    if (hash !== before.racyHash) racyHash = hash;
  }
  return racyHash === undefined ? stat : { ...stat, racyHash };
}

function lstatOrWarn(
  fs: Fs,
  abs: string,
  path: string,
  warnings: FilesWarning[],
): BigIntStats | undefined {
  try {
    return fs.lstatSync(abs, { bigint: true });
  } catch (error) {
    // Deleted between the listing and the stat: simply not there any more.
    if (!isMissing(error)) {
      const errno = errnoCode(error);
      warnings.push({
        code: 'FILES_UNREADABLE',
        path,
        message: `${path} could not be stat'ed (${errno ?? 'unknown error'}); skipped`,
        ...(errno ? { errno } : {}),
      });
    }
    return undefined;
  }
}

function toFileStat(stats: BigIntStats): FileStat {
  return {
    kind: stats.isSymbolicLink() ? 'symlink' : 'file',
    size: Number(stats.size),
    mode: Number(stats.mode),
    ino: stats.ino,
    mtimeMs: Number(stats.mtimeMs),
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
  };
}

/** {@link sameStat} against raw stats, without building a {@link FileStat}. */
function unchanged(stat: FileStat, stats: BigIntStats): boolean {
  return (
    stat.mtimeNs === stats.mtimeNs &&
    stat.ctimeNs === stats.ctimeNs &&
    stat.ino === stats.ino &&
    stat.size === Number(stats.size) &&
    stat.mode === Number(stats.mode)
  );
}

function hashOrUndefined(root: string, path: string, warnings: FilesWarning[]): string | undefined {
  try {
    return hashFileSync(root, path);
  } catch (error) {
    const errno = errnoCode(error);
    warnings.push({
      code: 'FILES_UNREADABLE',
      path,
      message: `${path} could not be hashed; its change is judged by stat alone`,
      ...(errno ? { errno } : {}),
    });
    return undefined;
  }
}

/** True when nothing `lstat` reports differs. */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return (
    a.size === b.size &&
    a.mode === b.mode &&
    a.ino === b.ino &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/**
 * Compares two snapshots. A file is modified when size, mode, inode, mtime or ctime differ, or
 * when both stats carry a `racyHash` and the hashes differ. Pure: touches no file.
 */
export function diff(before: FileSnapshot, after: FileSnapshot): FileChanges {
  const created: FileChange[] = [];
  const modified: FileChange[] = [];
  const deleted: FileChange[] = [];
  for (const [path, stat] of after) {
    const old = before.get(path);
    if (old === stat) continue;
    if (!old) created.push({ path, after: stat });
    else if (!sameStat(old, stat) || differentHash(old, stat)) {
      modified.push({ path, before: old, after: stat });
    }
  }
  for (const [path, stat] of before) if (!after.has(path)) deleted.push({ path, before: stat });
  const byPath = (a: FileChange, b: FileChange) => compareUtf8(a.path, b.path);
  return {
    created: created.sort(byPath),
    modified: modified.sort(byPath),
    deleted: deleted.sort(byPath),
  };
}

/** True when both stats carry a content hash and the hashes differ. */
export function differentHash(a: FileStat, b: FileStat): boolean {
  return a.racyHash !== undefined && b.racyHash !== undefined && a.racyHash !== b.racyHash;
}

import type { FilesWarning } from '../errors.js';
import {
  differentHash,
  type FileChange,
  type FileChanges,
  type FileStat,
  sameStat,
  statFile,
} from '../snapshot.js';
import { resolverInternals, type UnifiedFileResolver } from '../unified-file-resolver.js';
import { compareUtf8 } from './compare-paths.js';
import { nowNs, racyThreshold } from './racy.js';

/**
 * A scanner's snapshot kept up to date in place, with the number of snapshot files below each
 * directory: a dirty directory with none below it needs no search of the map, and one with some
 * needs one pass (a renamed or deleted directory reports no event for its files).
 */
export class LiveSnapshot {
  readonly files: Map<string, FileStat>;
  readonly #below = new Map<string, number>();

  constructor(files: Map<string, FileStat>) {
    this.files = files;
    for (const path of files.keys()) this.#count(path, 1);
  }

  set(path: string, stat: FileStat): void {
    if (!this.files.has(path)) this.#count(path, 1);
    this.files.set(path, stat);
  }

  delete(path: string): void {
    if (this.files.delete(path)) this.#count(path, -1);
  }

  /** The snapshot's paths strictly below the directory `dir`. */
  pathsBelow(dir: string): string[] {
    if (!this.#below.has(dir)) return [];
    const prefix = `${dir}/`;
    const out: string[] = [];
    for (const path of this.files.keys()) if (path.startsWith(prefix)) out.push(path);
    return out;
  }

  #count(path: string, delta: number): void {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const dir = path.slice(0, slash);
      const count = (this.#below.get(dir) ?? 0) + delta;
      if (count > 0) this.#below.set(dir, count);
      else this.#below.delete(dir);
    }
  }
}

/**
 * The dirty paths reduced to the subtrees to look at again, none below another. A changed
 * `.gitignore` makes its whole directory dirty; one at the root (undefined) means walk it all.
 */
export function dirtyRoots(dirty: readonly string[]): string[] | undefined {
  const roots: string[] = [];
  for (const path of dirty) {
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    if (name !== '.gitignore') roots.push(path);
    else if (slash === -1) return undefined;
    else roots.push(path.slice(0, slash));
  }
  const all = new Set(roots);
  const kept: string[] = [];
  for (const path of all) if (!hasAncestorIn(path, all)) kept.push(path);
  kept.sort(compareUtf8);
  return kept;
}

function hasAncestorIn(path: string, paths: ReadonlySet<string>): boolean {
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    if (paths.has(path.slice(0, slash))) return true;
  }
  return false;
}

/**
 * Brings `live` up to date for the dirty subtrees `roots` and returns what changed: the files
 * listed below them now are stat'ed (with the racy rule of a full scan), the ones listed before
 * and not now are deleted. Files outside the roots are not looked at.
 */
export function applyDirty(
  resolver: UnifiedFileResolver,
  rootAbs: string,
  patterns: readonly string[],
  live: LiveSnapshot,
  roots: readonly string[],
  warnings: FilesWarning[],
): FileChanges {
  const internals = resolverInternals(resolver);
  const racyFrom = racyThreshold(nowNs(), internals.racyWindowNs);
  const resolved = internals.resolveBelow(rootAbs, patterns, roots);
  warnings.push(...resolved.warnings);
  const listed = new Set(resolved.paths);
  const touched = new Set(resolved.paths);
  for (const root of roots) {
    if (live.files.has(root)) touched.add(root);
    for (const path of live.pathsBelow(root)) touched.add(path);
  }
  const prefix = rootAbs.endsWith('/') ? rootAbs : `${rootAbs}/`;
  const created: FileChange[] = [];
  const modified: FileChange[] = [];
  const deleted: FileChange[] = [];
  for (const path of [...touched].sort(compareUtf8)) {
    const before = live.files.get(path);
    const after = listed.has(path)
      ? statFile(internals.fs, rootAbs, prefix, path, before, racyFrom, warnings)
      : undefined;
    if (after) live.set(path, after);
    else live.delete(path);
    if (!before) {
      if (after) created.push({ path, after });
    } else if (!after) deleted.push({ path, before });
    else if (after !== before && (!sameStat(before, after) || differentHash(before, after))) {
      modified.push({ path, before, after });
    }
  }
  return { created, modified, deleted };
}

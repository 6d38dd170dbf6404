import type { DirInfo } from './index-file.js';
import { hashObject, MODE_TREE, serializeTree, type TreeEntry } from './objects.js';

/** A file as a tree needs it. */
export interface FileEntry {
  path: string;
  mode: number;
  oid: string;
}

/** The result of {@link buildTrees}; {@link applyTrees} moves a tree cache to it. */
export interface BuiltTrees {
  root: string;
  /** Directories serialised anew ('' = root), to set in the tree cache. */
  updated: Map<string, DirInfo>;
  /** Directories of the previous tree cache that are gone (each one below them too). */
  removed: string[];
  /** Tree objects that were serialised (they may already be stored). */
  created: { oid: string; content: Buffer; entries: TreeEntry[] }[];
}

/**
 * Builds the tree objects for `files`, which must be sorted by UTF-8 bytes: that order is a
 * depth-first walk in git's tree order, because every path inside directory `d` continues with
 * `d/` and git compares a directory as "name/". A directory that is not in `dirty` and was in
 * the previous tree keeps its id without being serialised again; its `count` says how many
 * sorted entries to step over. So an incremental checkpoint rebuilds only the directories on
 * the paths of its changes, and `previous` is not copied: the result lists what to change in it
 * (see {@link applyTrees}), which the caller does once the commit is written.
 */
export function buildTrees(
  files: readonly FileEntry[],
  previous: ReadonlyMap<string, DirInfo>,
  dirty: ReadonlySet<string>,
): BuiltTrees {
  const updated = new Map<string, DirInfo>();
  const removed: string[] = [];
  const created: BuiltTrees['created'] = [];
  let next = 0;

  const remove = (dirPath: string): void => {
    removed.push(dirPath);
    for (const name of previous.get(dirPath)?.subdirs ?? []) {
      remove(dirPath === '' ? name : `${dirPath}/${name}`);
    }
  };

  const build = (prefix: string, dirPath: string): DirInfo => {
    const before = previous.get(dirPath);
    if (before && !dirty.has(dirPath)) {
      next += before.count;
      return before;
    }
    const start = next;
    const items: TreeEntry[] = [];
    const subdirs: string[] = [];
    while (next < files.length) {
      const file = files[next] as FileEntry;
      if (!file.path.startsWith(prefix)) break;
      const slash = file.path.indexOf('/', prefix.length);
      if (slash < 0) {
        items.push({ name: file.path.slice(prefix.length), mode: file.mode, oid: file.oid });
        next++;
        continue;
      }
      const name = file.path.slice(prefix.length, slash);
      const child = build(file.path.slice(0, slash + 1), file.path.slice(0, slash));
      items.push({ name, mode: MODE_TREE, oid: child.oid });
      subdirs.push(name);
    }
    if (before && !sameNames(before.subdirs, subdirs)) {
      const kept = new Set(subdirs);
      for (const name of before.subdirs) {
        if (!kept.has(name)) remove(dirPath === '' ? name : `${dirPath}/${name}`);
      }
    }
    const content = serializeTree(items);
    const oid = hashObject('tree', content);
    created.push({ oid, content, entries: items });
    const info: DirInfo = { oid, count: next - start, subdirs };
    updated.set(dirPath, info);
    return info;
  };

  const root = build('', '');
  return { root: root.oid, updated, removed, created };
}

/** Moves a tree cache (`previous` of {@link buildTrees}) to the built tree, in place. */
export function applyTrees(
  dirs: Map<string, DirInfo>,
  built: Pick<BuiltTrees, 'updated' | 'removed'>,
): void {
  for (const path of built.removed) dirs.delete(path);
  for (const [path, info] of built.updated) dirs.set(path, info);
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

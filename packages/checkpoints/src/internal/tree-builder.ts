import type { DirInfo } from './index-file.js';
import { hashObject, MODE_TREE, serializeTree, type TreeEntry } from './objects.js';

/** A file as a tree needs it. */
export interface FileEntry {
  path: string;
  mode: number;
  oid: string;
}

/** The result of {@link buildTrees}. */
export interface BuiltTrees {
  root: string;
  /** Every directory of the new tree ('' = root). */
  dirs: Map<string, DirInfo>;
  /** Tree objects that were serialised (they may already be stored). */
  created: { oid: string; content: Buffer; entries: TreeEntry[] }[];
}

/**
 * Builds the tree objects for `files`, which must be sorted by UTF-8 bytes: that order is a
 * depth-first walk in git's tree order, because every path inside directory `d` continues with
 * `d/` and git compares a directory as "name/". A directory that is not in `dirty` and was in
 * the previous tree keeps its id without being serialised again; its `count` says how many
 * sorted entries to step over. So an incremental checkpoint rebuilds only the directories on
 * the paths of its changes.
 */
export function buildTrees(
  files: readonly FileEntry[],
  previous: ReadonlyMap<string, DirInfo>,
  dirty: ReadonlySet<string>,
): BuiltTrees {
  const dirs = new Map<string, DirInfo>();
  const created: BuiltTrees['created'] = [];
  let next = 0;

  const keep = (dirPath: string, info: DirInfo): void => {
    dirs.set(dirPath, info);
    for (const name of info.subdirs) {
      const child = dirPath === '' ? name : `${dirPath}/${name}`;
      const childInfo = previous.get(child);
      if (childInfo) keep(child, childInfo);
    }
  };

  const build = (prefix: string, dirPath: string): DirInfo => {
    const before = previous.get(dirPath);
    if (before && !dirty.has(dirPath)) {
      keep(dirPath, before);
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
    const content = serializeTree(items);
    const oid = hashObject('tree', content);
    created.push({ oid, content, entries: items });
    const info: DirInfo = { oid, count: next - start, subdirs };
    dirs.set(dirPath, info);
    return info;
  };

  const root = build('', '');
  return { root: root.oid, dirs, created };
}

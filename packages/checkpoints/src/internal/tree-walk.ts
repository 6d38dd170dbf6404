import { CheckpointError } from '../errors.js';
import type { ObjectStore } from './object-store.js';
import { MODE_TREE, type TreeEntry } from './objects.js';
import { compareCodePoints } from './paths.js';

/** A file (blob or symlink) at a full path. */
export interface FileRecord {
  path: string;
  mode: number;
  oid: string;
}

/** A path whose file differs between two trees; a missing side means absent there. */
export interface TreeChange {
  path: string;
  before?: FileRecord;
  after?: FileRecord;
}

/** Reads and parses a tree; a missing tree means the repository is damaged. */
export async function readTree(store: ObjectStore, oid: string): Promise<TreeEntry[]> {
  const entries = await store.readTree(oid);
  if (!entries) {
    throw new CheckpointError('CHECKPOINT_REPO_CORRUPT', `tree ${oid} is missing or not a tree`, {
      details: { oid },
    });
  }
  return entries;
}

/** Every file below a tree, in tree order (submodule entries are skipped). */
export async function flattenTree(
  store: ObjectStore,
  oid: string,
  prefix = '',
  out: FileRecord[] = [],
): Promise<FileRecord[]> {
  for (const entry of await readTree(store, oid)) {
    const path = prefix + entry.name;
    // Into one array: spreading a subtree's files as arguments overflows the stack past ~100k.
    if (entry.mode === MODE_TREE) await flattenTree(store, entry.oid, `${path}/`, out);
    else if (entry.mode !== 0o160000) out.push({ path, mode: entry.mode, oid: entry.oid });
  }
  return out;
}

/**
 * The files that differ between two trees (`undefined` = empty tree), in path order. Equal
 * subtree ids are skipped without being read, so the cost follows the size of the change, not
 * of the tree.
 */
export async function diffTrees(
  store: ObjectStore,
  before: string | undefined,
  after: string | undefined,
  prefix = '',
): Promise<TreeChange[]> {
  if (before === after) return [];
  const left = before ? await readTree(store, before) : [];
  const right = after ? await readTree(store, after) : [];
  const changes: TreeChange[] = [];
  const key = (entry: TreeEntry): string =>
    entry.mode === MODE_TREE ? `${entry.name}/` : entry.name;
  const side = async (entry: TreeEntry, which: 'before' | 'after'): Promise<void> => {
    const path = prefix + entry.name;
    if (entry.mode === MODE_TREE) {
      for (const file of await flattenTree(store, entry.oid, `${path}/`))
        changes.push({ path: file.path, [which]: file });
    } else if (entry.mode !== 0o160000)
      changes.push({ path, [which]: { path, mode: entry.mode, oid: entry.oid } });
  };
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    const order = !l ? 1 : !r ? -1 : compareCodePoints(key(l), key(r));
    if (order < 0 && l) {
      await side(l, 'before');
      i++;
    } else if (order > 0 && r) {
      await side(r, 'after');
      j++;
    } else if (l && r) {
      i++;
      j++;
      if (l.oid === r.oid && l.mode === r.mode) continue;
      if (l.mode === MODE_TREE && r.mode === MODE_TREE) {
        // A loop, not a spread: a subtree's changes can be too many for the stack.
        for (const change of await diffTrees(store, l.oid, r.oid, `${prefix}${l.name}/`))
          changes.push(change);
      } else if (l.mode !== MODE_TREE && r.mode !== MODE_TREE) {
        const path = prefix + l.name;
        changes.push({
          path,
          before: { path, mode: l.mode, oid: l.oid },
          after: { path, mode: r.mode, oid: r.oid },
        });
      } else {
        await side(l, 'before');
        await side(r, 'after');
      }
    }
  }
  // A name that is a file on one side and a directory on the other lands twice out of order.
  return changes.sort((x, y) => compareCodePoints(x.path, y.path));
}

import { CheckpointError } from '../errors.js';
import type { MergeConflictKind } from '../types.js';
import { isBinary, type MergeLabels, mergeText } from './merge-file.js';
import type { ObjectStore } from './object-store.js';
import { hashObject, MODE_TREE, serializeTree, type TreeEntry } from './objects.js';
import { compareCodePoints } from './paths.js';

/** A tree entry without its name: what one side has at a path. */
export interface Entry {
  mode: number;
  oid: string;
}

/** A conflict found by the walk; the caller adds which branches it involves. */
export interface WalkConflict {
  path: string;
  kind: MergeConflictKind;
  text?: string;
}

/** An object the merge made and has not written yet. */
export interface PendingObject {
  type: 'blob' | 'tree';
  content: Buffer;
  entries?: TreeEntry[];
}

const same = (x: Entry | undefined, y: Entry | undefined): boolean =>
  x === y || (x !== undefined && y !== undefined && x.oid === y.oid && x.mode === y.mode);

const treePart = (entry: Entry | undefined): Entry | undefined =>
  entry?.mode === MODE_TREE ? entry : undefined;

const blobPart = (entry: Entry | undefined): Entry | undefined =>
  entry && entry.mode !== MODE_TREE ? entry : undefined;

/**
 * Three-way merge of trees, the way git's merge-ort walks them: an entry (file or whole subtree)
 * equal on two of the three sides is settled by id alone, without being read, so only paths that
 * both sides changed reach the file-level merge. Conflicts are collected in `conflicts` and the
 * walk goes on with the `ours` side of each one (every clean hunk of both sides kept), which is
 * the `ordered` policy's result; the caller decides whether that result may be used.
 *
 * New blobs and trees go to `pending`, not to disk: a merge that fails writes nothing.
 */
export class TreeMerge {
  readonly pending = new Map<string, PendingObject>();
  conflicts: WalkConflict[] = [];

  constructor(
    private readonly store: ObjectStore,
    /** The marker labels for a conflicting text file at `path`. */
    public labels: (path: string) => Promise<MergeLabels>,
  ) {}

  /** The merged tree of `base`, `ours` and `theirs` (undefined = empty) or undefined if empty. */
  async mergeTrees(
    base: string | undefined,
    ours: string | undefined,
    theirs: string | undefined,
    prefix = '',
  ): Promise<string | undefined> {
    if (ours === theirs) return ours;
    if (base === ours) return theirs;
    if (base === theirs) return ours;
    const [o, a, b] = await Promise.all([
      this.byName(base),
      this.byName(ours),
      this.byName(theirs),
    ]);
    const names = new Set([...o.keys(), ...a.keys(), ...b.keys()]);
    const items: TreeEntry[] = [];
    for (const name of names) {
      const merged = await this.mergeEntry(o.get(name), a.get(name), b.get(name), prefix + name);
      if (merged) items.push({ name, ...merged });
    }
    if (items.length === 0) return undefined;
    // Git's tree order: a directory sorts as "name/".
    const key = (entry: TreeEntry): string =>
      entry.mode === MODE_TREE ? `${entry.name}/` : entry.name;
    items.sort((x, y) => compareCodePoints(key(x), key(y)));
    const content = serializeTree(items);
    const oid = hashObject('tree', content);
    this.pending.set(oid, { type: 'tree', content, entries: items });
    return oid;
  }

  /** A tree's entries: made by this merge, or read from the store. */
  async readTree(oid: string): Promise<TreeEntry[]> {
    const made = this.pending.get(oid)?.entries;
    if (made) return made;
    const entries = await this.store.readTree(oid);
    if (!entries) {
      throw new CheckpointError('CHECKPOINT_REPO_CORRUPT', `tree ${oid} is missing or not a tree`, {
        details: { oid },
      });
    }
    return entries;
  }

  private async byName(oid: string | undefined): Promise<Map<string, Entry>> {
    const map = new Map<string, Entry>();
    if (oid !== undefined) for (const entry of await this.readTree(oid)) map.set(entry.name, entry);
    return map;
  }

  /**
   * One name in the three trees. A name may be a directory on one side and a file on another,
   * so the directory parts and the file parts merge apart; both surviving is a `type` conflict.
   */
  private async mergeEntry(
    o: Entry | undefined,
    a: Entry | undefined,
    b: Entry | undefined,
    path: string,
  ): Promise<Entry | undefined> {
    if (same(a, b)) return a;
    if (same(o, a)) return b;
    if (same(o, b)) return a;
    const tree = await this.mergeTrees(
      treePart(o)?.oid,
      treePart(a)?.oid,
      treePart(b)?.oid,
      `${path}/`,
    );
    const mark = this.conflicts.length;
    const file =
      blobPart(a) || blobPart(b)
        ? await this.mergeFile(blobPart(o), blobPart(a), blobPart(b), path)
        : undefined;
    if (tree === undefined) return file;
    if (file === undefined) return { mode: MODE_TREE, oid: tree };
    // Both a directory and a file survive: one side's kind wins; the file's own conflict, if
    // any, is part of this one.
    this.conflicts.length = mark;
    this.conflicts.push({ path, kind: 'type' });
    return a?.mode === MODE_TREE ? { mode: MODE_TREE, oid: tree } : file;
  }

  /** Merges the file (blob or symlink) parts of one path. */
  private async mergeFile(
    o: Entry | undefined,
    a: Entry | undefined,
    b: Entry | undefined,
    path: string,
  ): Promise<Entry | undefined> {
    if (same(a, b)) return a;
    if (same(o, a)) return b;
    if (same(o, b)) return a;
    if (!a || !b) return this.conflict(path, 'modify-delete', a);
    const regular = (entry: Entry): boolean => (entry.mode & 0o170000) === 0o100000;
    // A symlink is a blob of its target text but never merged line by line (as in git).
    if (!regular(a) || !regular(b)) {
      if (a.mode !== b.mode) return this.conflict(path, 'type', a);
      return this.conflict(path, o ? 'content' : 'add-add', a);
    }
    // Git's mode rule: a side that kept the base's mode takes the other's; both changing it
    // differently (possible only when the base had no such file) conflicts.
    let mode = b.mode;
    let modeClean = true;
    if (a.mode !== b.mode && a.mode !== o?.mode) {
      mode = a.mode;
      modeClean = b.mode === o?.mode;
    }
    let oid: string;
    if (a.oid === b.oid) oid = a.oid;
    else if (o && a.oid === o.oid) oid = b.oid;
    else if (o && b.oid === o.oid) oid = a.oid;
    else {
      const [base, ours, theirs] = await Promise.all([
        o ? this.readBlob(o.oid) : Buffer.alloc(0),
        this.readBlob(a.oid),
        this.readBlob(b.oid),
      ]);
      if (isBinary(base) || isBinary(ours) || isBinary(theirs))
        return this.conflict(path, 'binary', a);
      const merged = mergeText(base, ours, theirs, await this.labels(path));
      oid = this.addBlob(merged.content);
      if (!merged.clean) {
        this.conflicts.push({ path, kind: o ? 'content' : 'add-add', text: merged.text });
        return { mode: modeClean ? mode : a.mode, oid };
      }
    }
    if (!modeClean) this.conflicts.push({ path, kind: 'mode' });
    return { mode, oid };
  }

  private conflict(
    path: string,
    kind: MergeConflictKind,
    ours: Entry | undefined,
  ): Entry | undefined {
    this.conflicts.push({ path, kind });
    return ours;
  }

  private addBlob(content: Buffer): string {
    const oid = hashObject('blob', content);
    if (!this.pending.has(oid)) this.pending.set(oid, { type: 'blob', content });
    return oid;
  }

  private async readBlob(oid: string): Promise<Buffer> {
    const made = this.pending.get(oid);
    if (made?.type === 'blob') return made.content;
    const object = await this.store.read(oid);
    if (object?.type !== 'blob') {
      throw new CheckpointError('CHECKPOINT_REPO_CORRUPT', `blob ${oid} is missing`, {
        details: { oid },
      });
    }
    return object.content;
  }
}

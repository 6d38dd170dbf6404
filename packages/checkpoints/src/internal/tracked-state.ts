import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  futimesSync,
  linkSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hasErrno, isMissing } from '@hankweave/durable-io';
import type { UpdatedList } from './entry-list.js';
import type { DirInfo, Splice } from './index-file.js';
import { IndexWriter, parseIndex } from './index-file.js';
import { type Io, mtimeSeconds } from './io.js';
import type { Layout } from './layout.js';
import type { ObjectStore } from './object-store.js';
import { MODE_LINK } from './objects.js';
import { sortByBytes } from './paths.js';
import { type CacheEntry, entriesFromIndex, entryFromTree } from './stat-cache.js';
import { flattenTree } from './tree-walk.js';

/**
 * What the engine knows about the current checkpoint: its tree's files with their last seen
 * stat data (the stat cache) and its directories' tree ids (the tree cache). It is persisted as
 * the repository's real git index, v2 with a cache-tree extension, so native `git status` uses
 * it too and a restarted engine picks up where it stopped.
 */
export interface TrackedState {
  /** The tree `entries` describe: HEAD's tree. */
  headTree: string;
  /** The entries by path, for lookups of single paths (its iteration order means nothing). */
  entries: Map<string, CacheEntry>;
  /** The same entries sorted by UTF-8 bytes: the index's order and a depth-first tree walk. */
  sorted: CacheEntry[];
  /** `sorted`'s paths (walking them does not touch the entry objects). */
  paths: string[];
  /** Paths of the entries to re-check even with a `changed` hint (`verify`, the racy rule). */
  racy: Set<string>;
  /** The lists before `sorted` and `paths`, whose arrays the next change writes into. */
  spare: { sorted: CacheEntry[]; paths: string[] };
  /** Counts changes of `sorted`, so the index writer knows which list its last file holds. */
  version: number;
  /** How many entries are symlinks (none: no path can be below a listed link). */
  links: number;
  /**
   * Directory ids of `headTree`; may be partial or empty (then rebuilt on demand). Every key is
   * reachable from the root through `subdirs`, so a directory's `count` can be trusted.
   */
  dirs: Map<string, DirInfo>;
  writer: IndexWriter;
}

/** A state over `sorted` (entries sorted by bytes). */
export function makeState(
  headTree: string,
  sorted: CacheEntry[],
  dirs: Map<string, DirInfo>,
  writer = new IndexWriter(),
): TrackedState {
  const entries = new Map<string, CacheEntry>();
  const racy = new Set<string>();
  let links = 0;
  for (const entry of sorted) {
    entries.set(entry.path, entry);
    if (entry.mode === MODE_LINK) links++;
    if (entry.verify) racy.add(entry.path);
  }
  const paths = sorted.map((entry) => entry.path);
  const spare = { sorted: [], paths: [] };
  return { headTree, entries, sorted, paths, racy, spare, version: 0, links, dirs, writer };
}

/** What changed in the entry list, for {@link saveState}. */
export interface EntryEdit {
  /** The state's `version` before the change. */
  from: number;
  splices: Splice[];
}

/**
 * Moves the state's entries in place to `list`, made by `applyUpdates(state.sorted, state.paths,
 * updates)`: only the changed paths touch the map. Called once the new commit or HEAD is
 * written, so a failed operation leaves the state alone.
 */
export function applyEntryUpdates(
  state: TrackedState,
  updates: ReadonlyMap<string, CacheEntry | null>,
  list: UpdatedList,
): EntryEdit {
  const from = state.version;
  for (const [path, after] of updates) {
    const before = state.entries.get(path);
    if (before?.mode === MODE_LINK) state.links--;
    if (after?.mode === MODE_LINK) state.links++;
    state.racy.delete(path);
    if (after) {
      state.entries.set(path, after);
      if (after.verify) state.racy.add(path);
    } else state.entries.delete(path);
  }
  if (list.sorted !== state.sorted) {
    state.spare = { sorted: state.sorted, paths: state.paths };
    state.sorted = list.sorted;
    state.paths = list.paths;
    state.version++;
  }
  return { from, splices: list.splices };
}

/**
 * Loads the index. When its cache tree says it describes HEAD's tree it is taken as is;
 * otherwise (a crash between ref and index writes, a hand-run git) HEAD's tree is read and the
 * index only lends stat data to entries whose path, mode and blob id still agree.
 */
export async function loadState(
  io: Io,
  layout: Layout,
  store: ObjectStore,
  headTree: string,
): Promise<TrackedState> {
  const stat = await io.lstat(layout.indexFile);
  const data = stat ? await io.readOptional(layout.indexFile) : undefined;
  const parsed = data ? parseIndex(data) : undefined;
  const indexTime = stat?.mtimeNs ?? 0n;
  // Git writes index entries in byte order, and so does this engine.
  if (parsed?.sorted && parsed.dirs.get('')?.oid === headTree) {
    const writer = new IndexWriter();
    // The file read is the writer's last file: the first save patches it (makeState's list is
    // version 0). Only a buffer of our own read: another file system's could be its storage.
    if (parsed.offsets && io.native) writer.adopt(data as Buffer, parsed.offsets, 0);
    return makeState(headTree, entriesFromIndex(parsed.entries, indexTime), parsed.dirs, writer);
  }
  const known = new Map(
    entriesFromIndex(parsed?.entries ?? [], indexTime).map((entry) => [entry.path, entry]),
  );
  const sorted: CacheEntry[] = [];
  for (const file of await flattenTree(store, headTree)) {
    const old = known.get(file.path);
    sorted.push(
      old && old.oid === file.oid && old.mode === file.mode
        ? old
        : entryFromTree(file.path, file.mode, file.oid),
    );
  }
  const paths = new Map(sorted.map((entry) => [entry.path, entry]));
  return makeState(
    headTree,
    sortByBytes([...paths.keys()]).map((path) => paths.get(path) as CacheEntry),
    new Map(),
  );
}

/**
 * Writes the index: `index.lock`, then rename, git's own protocol. The index is a cache, so it
 * is not fsynced (its checksum rejects a torn file) and a lock held by a concurrent `git status`
 * just skips this write. Its mtime is set to `clock`, the fs time sampled before the stats it
 * holds were taken, which is what the racy-git rule on reload (and in native git) compares to.
 */
export async function saveState(
  io: Io,
  layout: Layout,
  state: TrackedState,
  clock: bigint,
  edit?: EntryEdit,
): Promise<void> {
  const dirs = state.dirs.get('')?.oid === state.headTree ? state.dirs : new Map<string, DirInfo>();
  const data = state.writer.write(state.sorted, state.version, dirs, edit);
  try {
    if (io.native) writeIndexInPlace(layout.indexFile, data, clock);
    else
      await io.writeAtomic(layout.indexFile, data, {
        exclusive: true,
        mtimeNs: clock,
        sync: false,
      });
  } catch (error) {
    if (!hasErrno(error, 'EEXIST')) throw error;
  }
}

/**
 * git's lock protocol (`index.lock` created exclusively, then renamed over `index`), but the
 * lock file is the inode of the index before last, kept under `index-hankweave-spare`, and is
 * overwritten in place: writing 20 MB into a new file costs ~75 ms here (the kernel allocates
 * and zeroes every page), into pages it already has ~3 ms. A reader of the index holds the
 * current inode, which is only reused two writes later. Not fsynced: the index is a cache,
 * rebuilt from HEAD when its checksum fails.
 */
function writeIndexInPlace(indexFile: string, data: Buffer, mtimeNs: bigint): void {
  const lock = `${indexFile}.lock`;
  const spare = `${indexFile}-hankweave-spare`;
  let fd: number | undefined;
  try {
    linkSync(spare, lock); // fails with EEXIST while another writer holds the lock
    unlinkSync(spare);
    fd = reusableLock(lock);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  fd ??= openSync(lock, 'wx', 0o644);
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at, at);
    ftruncateSync(fd, data.length);
    const seconds = mtimeSeconds(mtimeNs);
    futimesSync(fd, seconds, seconds);
  } catch (error) {
    closeSync(fd);
    unlinkSync(lock);
    throw error;
  }
  closeSync(fd);
  try {
    linkSync(indexFile, spare);
  } catch {
    // no index yet, or no hard links here: the next write makes a new file
  }
  renameSync(lock, indexFile);
}

/**
 * Opens the lock made from the spare for writing in place, or removes it and returns undefined
 * when it is not a file of its own: a symlink or a file with another name elsewhere (planted
 * under the spare's name by whoever could write the git dir) would have the index written
 * through it, outside the repository.
 */
function reusableLock(lock: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch (error) {
    if (!hasErrno(error, 'ELOOP')) throw error;
    unlinkSync(lock);
    return undefined;
  }
  const stats = fstatSync(fd);
  if (stats.isFile() && stats.nlink === 1) return fd;
  closeSync(fd);
  unlinkSync(lock);
  return undefined;
}

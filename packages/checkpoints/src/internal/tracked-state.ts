import { hasErrno } from '@hankweave/durable-io';
import type { DirInfo } from './index-file.js';
import { parseIndex, serializeIndex } from './index-file.js';
import type { Io } from './io.js';
import type { Layout } from './layout.js';
import type { ObjectStore } from './object-store.js';
import { sortByBytes } from './paths.js';
import { type CacheEntry, entryFromIndex, entryFromTree } from './stat-cache.js';
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
  entries: Map<string, CacheEntry>;
  /** Directory ids of `headTree`; may be partial or empty (then rebuilt on demand). */
  dirs: Map<string, DirInfo>;
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
  if (parsed && parsed.dirs.get('')?.oid === headTree) {
    const entries = new Map<string, CacheEntry>();
    for (const entry of parsed.entries) entries.set(entry.path, entryFromIndex(entry, indexTime));
    return { headTree, entries, dirs: parsed.dirs };
  }
  const known = new Map(parsed?.entries.map((entry) => [entry.path, entry]));
  const entries = new Map<string, CacheEntry>();
  for (const file of await flattenTree(store, headTree)) {
    const old = known.get(file.path);
    entries.set(
      file.path,
      old && old.oid === file.oid && old.mode === file.mode
        ? entryFromIndex(old, indexTime)
        : entryFromTree(file.path, file.mode, file.oid),
    );
  }
  return { headTree, entries, dirs: new Map() };
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
  sorted?: CacheEntry[],
): Promise<void> {
  const entries =
    sorted ??
    sortByBytes([...state.entries.keys()]).map((path) => state.entries.get(path) as CacheEntry);
  const dirs = state.dirs.get('')?.oid === state.headTree ? state.dirs : new Map<string, DirInfo>();
  try {
    await io.writeAtomic(layout.indexFile, serializeIndex(entries, dirs), {
      exclusive: true,
      mtimeNs: clock,
      sync: false,
    });
  } catch (error) {
    if (!hasErrno(error, 'EEXIST')) throw error;
  }
}

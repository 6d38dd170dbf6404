import { isMissing } from '@hankweave/durable-io';
import { CheckpointError, toStorageError } from '../errors.js';
import type { RestoreOptions, RestoreResult } from '../types.js';
import type { EngineContext } from './context.js';
import { applyUpdates } from './entry-list.js';
import type { DirInfo } from './index-file.js';
import type { Stat } from './io.js';
import { hasNoMountsBelow } from './mounts.js';
import { hashObject, MODE_EXEC, MODE_GITLINK, MODE_LINK, MODE_TREE } from './objects.js';
import { assertRelativePath, forEachAncestor, isInGitDir, parentOf, sortByBytes } from './paths.js';
import { forEachLimit } from './pool.js';
import { mayRewrite, rewriteInPlace } from './rewrite-in-place.js';
import {
  type CacheEntry,
  entryFromStat,
  entryFromTree,
  gitModeOf,
  statMatches,
} from './stat-cache.js';
import { applyEntryUpdates, saveState } from './tracked-state.js';
import { applyTrees, type BuiltTrees } from './tree-builder.js';
import { diffTrees, type FileRecord, readTree } from './tree-walk.js';
import { assertRealWorkTree } from './work-tree.js';

/** What a restore must do with one path. */
interface Plan {
  /** The paths whose cache entry changes: the new entry, or null when the path goes. */
  updates: Map<string, CacheEntry | null>;
  toWrite: FileRecord[];
  /** Files to write whose lstat showed a file that may be rewritten in place (see rewrite-in-place.ts). */
  rewritable: Map<string, Stat>;
  toDelete: string[];
  /** Files whose stat the cache cannot vouch for: hash them to see if they already match. */
  toHash: { file: FileRecord; stat: Stat }[];
}

/**
 * Makes the tracked files match commit `sha` and detaches HEAD there, like `git checkout -f`:
 * files that differ are rewritten, files the target lacks are deleted (then their emptied
 * directories), untracked files are left alone, no branch moves. Only paths whose content or
 * mode differs are touched: the HEAD→target tree diff skips equal subtrees, and the other
 * tracked files are checked against the stat cache (or trusted, with the `changed` hint).
 */
export async function restoreCheckpoint(
  ctx: EngineContext,
  sha: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { io, layout, state } = ctx;
  await assertRealWorkTree(io, layout.workTree, true);
  const clock = await ctx.clock.now();
  const target = await ctx.history.commit(sha);
  const changes = await diffTrees(ctx.store, state.headTree, target.tree);
  const changedPaths = new Set(changes.map((change) => change.path));
  const hinted = options.changed ? new Set(options.changed) : undefined;
  const plan: Plan = {
    updates: new Map(),
    toWrite: [],
    rewritable: new Map(),
    toDelete: [],
    toHash: [],
  };

  // Tracked files the target keeps as they are: rewrite only those modified on disk. This stat
  // loop over every tracked file is the floor of a restore's cost, hence sync on the real fs.
  // With the hint, only hinted and racy entries are looked at: no pass over every entry.
  const prefix = `${layout.workTree}/`;
  const kept = hinted
    ? [...new Set([...hinted, ...state.racy])].flatMap((path) => state.entries.get(path) ?? [])
    : state.sorted;
  for (const entry of kept) {
    if (changedPaths.has(entry.path)) continue;
    // Inline sync call rather than `await lstatQuick`: an await per file costs more than the
    // lstat itself at 10k files.
    const stat = io.native
      ? io.lstatSync(prefix + entry.path)
      : await io.lstat(prefix + entry.path);
    classify(plan, entry, entry, stat);
  }
  for (const change of changes) {
    if (change.after)
      classify(
        plan,
        change.after,
        state.entries.get(change.path),
        await io.lstatQuick(prefix + change.path),
      );
    else {
      plan.toDelete.push(change.path);
      plan.updates.set(change.path, null);
    }
  }
  // Files that match the tracked patterns but that no checkpoint has yet (made by an attempt that
  // crashed or was stopped before its checkpoint): the target lacks them, so they go too.
  for (const path of options.tracked ?? []) {
    assertRelativePath(path);
    if (state.entries.has(path) || changedPaths.has(path) || isInGitDir(path)) continue;
    if ((await io.lstatQuick(prefix + path)) !== undefined) plan.toDelete.push(path);
  }
  await forEachLimit(plan.toHash, ctx.concurrency, async ({ file, stat }) => {
    let oid: string | undefined;
    try {
      const content =
        file.mode === MODE_LINK
          ? await io.readlinkQuick(prefix + file.path)
          : await io.readFileQuick(prefix + file.path);
      oid = hashObject('blob', content);
    } catch (error) {
      if (!isMissing(error)) throw toStorageError(error, `cannot read ${file.path}`, file.path);
    }
    if (oid === file.oid)
      plan.updates.set(file.path, entryFromStat(file.path, stat, file.mode, oid, clock));
    else toWrite(plan, file, stat);
  });

  await removeFiles(ctx, plan.toDelete);
  const realDirs = new Set<string>();
  // One look at the mount table per restore: a file bind-mounted over a tracked path is replaced
  // (and fails, as a mount point cannot be unlinked), never written through.
  const inPlace = plan.rewritable.size > 0 && hasNoMountsBelow(layout.workTree);
  await forEachLimit(plan.toWrite, ctx.concurrency, async (file) => {
    const stat = await writeFile(
      ctx,
      file,
      realDirs,
      inPlace ? plan.rewritable.get(file.path) : undefined,
    );
    const mode = stat ? gitModeOf(stat) : undefined;
    plan.updates.set(
      file.path,
      stat && mode === file.mode
        ? entryFromStat(file.path, stat, mode, file.oid, clock)
        : entryFromTree(file.path, file.mode, file.oid),
    );
  });

  const dirs = await targetDirs(ctx, target.tree, state.dirs);
  await ctx.refs.setHead({ sha });
  const edit = applyEntryUpdates(
    state,
    plan.updates,
    applyUpdates(state.sorted, state.paths, plan.updates, state.spare),
  );
  applyTrees(state.dirs, dirs);
  state.headTree = target.tree;
  try {
    await saveState(io, layout, state, clock, edit);
  } catch {
    // The files and HEAD are restored; the index is a cache that the next write refreshes.
  }
  return {
    sha,
    written: sortByBytes(plan.toWrite.map((file) => file.path)),
    deleted: sortByBytes(plan.toDelete),
  };
}

/**
 * The changes that move the tree cache (directory ids and file counts) to the target tree:
 * directories whose id is unchanged keep their entry (and their subdirectories'); the others
 * come from the target's trees, which the HEAD→target diff just read into the store's tree
 * cache. Nothing is hashed, and only changed directories are visited.
 */
async function targetDirs(
  ctx: EngineContext,
  root: string,
  previous: ReadonlyMap<string, DirInfo>,
): Promise<Pick<BuiltTrees, 'updated' | 'removed'>> {
  const updated = new Map<string, DirInfo>();
  const removed: string[] = [];
  const remove = (path: string): void => {
    removed.push(path);
    for (const name of previous.get(path)?.subdirs ?? []) {
      remove(path === '' ? name : `${path}/${name}`);
    }
  };
  const visit = async (path: string, oid: string): Promise<DirInfo> => {
    const before = previous.get(path);
    if (before?.oid === oid) return before;
    let count = 0;
    const subdirs: string[] = [];
    for (const entry of await readTree(ctx.store, oid)) {
      if (entry.mode === MODE_TREE) {
        count += (await visit(path === '' ? entry.name : `${path}/${entry.name}`, entry.oid)).count;
        subdirs.push(entry.name);
      } else if (entry.mode !== MODE_GITLINK) count++;
    }
    if (before) {
      const kept = new Set(subdirs);
      for (const name of before.subdirs) {
        if (!kept.has(name)) remove(path === '' ? name : `${path}/${name}`);
      }
    }
    const info: DirInfo = { oid, count, subdirs };
    updated.set(path, info);
    return info;
  };
  await visit('', root);
  return { updated, removed };
}

/**
 * Sorts one wanted file into keep / write / hash. When the stat cache vouches for what is on
 * disk its id decides without reading the file.
 */
function classify(
  plan: Plan,
  want: FileRecord,
  cached: CacheEntry | undefined,
  stat: Stat | undefined,
): void {
  const mode = stat ? gitModeOf(stat) : undefined;
  if (!stat || mode !== want.mode) toWrite(plan, want, stat);
  else if (cached && statMatches(cached, stat, mode)) {
    // A kept entry (`want` is the entry itself) needs no update.
    if (cached.oid === want.oid) {
      if (cached !== want) plan.updates.set(want.path, cached);
    } else toWrite(plan, want, stat);
  } else plan.toHash.push({ file: want, stat });
}

/** Adds a file to write, noting whether what is on disk now may be rewritten in place. */
function toWrite(plan: Plan, file: FileRecord, stat: Stat | undefined): void {
  plan.toWrite.push(file);
  if (stat && mayRewrite(stat, file.mode)) plan.rewritable.set(file.path, stat);
}

/**
 * True when a directory on the way to `path` is a symbolic link: the work tree's agent may have
 * replaced a tracked directory by a link to anywhere (the user's data), and deleting `path` would
 * then delete the file at the link's target. `real` remembers directories seen to be real.
 */
async function reachedThroughLink(
  ctx: EngineContext,
  path: string,
  real: Set<string>,
): Promise<boolean> {
  const parent = parentOf(path);
  if (parent === '' || real.has(parent)) return false;
  if (await reachedThroughLink(ctx, parent, real)) return true;
  const stat = await ctx.io.lstatQuick(`${ctx.layout.workTree}/${parent}`);
  if (stat?.isSymbolicLink()) return true;
  if (stat?.isDirectory()) real.add(parent);
  return false;
}

/**
 * Deletes tracked files the target lacks, then the directories that became empty. A file reached
 * through a symbolic link is not deleted (nothing outside the work tree is ever touched); writing
 * the target's files replaces such a link by a real directory (see {@link ensureParentDirs}).
 */
async function removeFiles(ctx: EngineContext, paths: readonly string[]): Promise<void> {
  const prefix = `${ctx.layout.workTree}/`;
  const parents = new Set<string>();
  const real = new Set<string>();
  for (const path of paths) {
    if (await reachedThroughLink(ctx, path, real)) continue;
    const stat = await ctx.io.lstatQuick(prefix + path);
    if (!stat || stat.isDirectory()) continue; // already gone, or replaced by untracked content
    try {
      await ctx.io.unlinkQuick(prefix + path);
    } catch (error) {
      if (!isMissing(error)) throw toStorageError(error, `cannot delete ${path}`, path);
    }
    forEachAncestor(path, (dir) => {
      if (dir === '' || parents.has(dir)) return false;
      parents.add(dir);
      return true;
    });
  }
  // Deepest first, each directory once; a failure means untracked files remain: keep it.
  for (const dir of [...parents].sort((a, b) => b.length - a.length)) {
    try {
      await ctx.io.rmdirQuick(prefix + dir);
    } catch {
      // not empty or already gone
    }
  }
}

/**
 * Writes one file from the repository: in place when `rewritable` (the file's lstat at planning)
 * is given and the file is still that lone regular file, otherwise replacing whatever stands in
 * its way as git -f does. `dirs` remembers directories already known to be real within this
 * restore.
 */
async function writeFile(
  ctx: EngineContext,
  file: FileRecord,
  dirs: Set<string>,
  rewritable: Stat | undefined,
): Promise<Stat | undefined> {
  const object = await ctx.store.read(file.oid);
  if (object?.type !== 'blob') {
    throw new CheckpointError(
      'CHECKPOINT_REPO_CORRUPT',
      `blob ${file.oid} of ${file.path} is missing`,
      {
        details: { oid: file.oid, path: file.path },
      },
    );
  }
  const full = `${ctx.layout.workTree}/${file.path}`;
  const { io } = ctx;
  try {
    // Every ancestor a real directory first: the in-place open and the exclusive create refuse a
    // link only as the last component.
    await ensureParentDirs(ctx, file.path, dirs);
    if (rewritable) {
      const stat = await rewriteInPlace(io, full, object.content, rewritable);
      if (stat) return stat;
    }
    // Unlink first (a new inode, as git does, so hard links elsewhere keep their content);
    // only a directory in the way needs a second look.
    try {
      await io.unlinkQuick(full);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EISDIR' || code === 'EPERM') await io.rmQuick(full);
      else if (code !== 'ENOENT') throw error;
    }
    if (file.mode === MODE_LINK) await io.symlinkQuick(object.content.toString('utf8'), full);
    else await io.createFileQuick(full, object.content, file.mode === MODE_EXEC ? 0o777 : 0o666);
    return await io.lstatQuick(full);
  } catch (error) {
    throw toStorageError(error, `cannot restore ${file.path}`, file.path);
  }
}

/** Creates the parent directories, replacing a file or symlink that stands where one must be. */
async function ensureParentDirs(
  ctx: EngineContext,
  path: string,
  dirs: Set<string>,
): Promise<void> {
  const parent = parentOf(path);
  if (parent === '' || dirs.has(parent)) return;
  // Every ancestor, top down, not only the parent: lstat follows links in the leading
  // components, so `link/sub` looks like a real directory when `link` points outside agentRoot.
  await ensureParentDirs(ctx, parent, dirs);
  const full = `${ctx.layout.workTree}/${parent}`;
  const stat = await ctx.io.lstatQuick(full);
  if (!stat?.isDirectory()) {
    try {
      if (stat) await ctx.io.unlinkQuick(full);
    } catch (error) {
      // Another file of this restore, in the same directory, cleared the way first.
      if (!isMissing(error)) throw error;
    }
    try {
      await ctx.io.mkdirQuick(full);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  // Only once it exists: a concurrent writer in the same directory must not skip ahead of it.
  dirs.add(parent);
}

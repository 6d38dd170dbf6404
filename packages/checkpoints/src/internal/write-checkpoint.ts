import { join } from 'node:path';
import { hasErrno, isMissing } from '@hankweave/durable-io';
import { CheckpointError, toStorageError } from '../errors.js';
import type { CheckpointInput, CheckpointResult, SkippedFile } from '../types.js';
import type { EngineContext } from './context.js';
import { applyUpdates, diffEntries } from './entry-list.js';
import { formatMessage } from './message.js';
import type { ObjectBatch } from './object-batch.js';
import { hashObject, MODE_LINK, parseCommit, serializeCommit } from './objects.js';
import { compactPacks } from './pack-compactor.js';
import { forEachAncestor } from './paths.js';
import { forEachLimit } from './pool.js';
import { type PendingFile, scanFiles } from './scan.js';
import { type CacheEntry, entryFromStat } from './stat-cache.js';
import { applyEntryUpdates, saveState } from './tracked-state.js';
import { applyTrees, buildTrees } from './tree-builder.js';
import { assertRealWorkTree } from './work-tree.js';

/**
 * One checkpoint: scan, hash what the stat cache does not know, write new blobs, rebuild the
 * trees on changed paths, write the commit, then (objects durable first) the branch and HEAD,
 * then the index. A kill at any point leaves refs at a complete earlier commit.
 */
export async function writeCheckpoint(
  ctx: EngineContext,
  input: CheckpointInput,
): Promise<CheckpointResult> {
  const { io, layout, store, state } = ctx;
  await assertRealWorkTree(io, layout.workTree, false);
  const clock = await ctx.clock.now();
  const scan = await scanFiles(io, {
    workTree: layout.workTree,
    files: input.files,
    changed: input.changed,
    cache: state.entries,
    paths: state.paths,
    racy: state.racy,
    links: state.links,
    maxFileSize: ctx.maxFileSize,
  });
  const batch = store.batch(scan.pending.length >= ctx.packThreshold);
  const hashed = new Map<string, CacheEntry>();
  const vanished: SkippedFile[] = [];
  await forEachLimit(scan.pending, ctx.concurrency, async (file) => {
    const entry = await hashFile(ctx, batch, file, clock);
    if (entry) hashed.set(file.path, entry);
    else vanished.push({ path: file.path, reason: 'missing' });
  });

  // What changes against the cache: a path's new entry, or null when it leaves the tree.
  let updates: Map<string, CacheEntry | null>;
  if (scan.kind === 'updates') {
    updates = scan.updates;
    for (const file of scan.pending) {
      const entry = hashed.get(file.path);
      if (entry) updates.set(file.path, entry);
      else if (state.entries.has(file.path)) updates.set(file.path, null);
    }
  } else {
    const sorted: CacheEntry[] = [];
    for (const slot of scan.slots) {
      const entry = 'oid' in slot ? slot : hashed.get(slot.path);
      if (entry) sorted.push(entry);
    }
    updates = new Map();
    for (const change of diffEntries(state.sorted, sorted)) {
      updates.set(change.path, change.after ?? null);
    }
  }
  const list = applyUpdates(state.sorted, state.paths, updates, state.spare);
  const dirty = new Set<string>();
  for (const [path, after] of updates) {
    const before = state.entries.get(path);
    if (before?.oid === after?.oid && before?.mode === after?.mode) continue;
    forEachAncestor(path, (dir) => {
      if (dirty.has(dir)) return false;
      dirty.add(dir);
      return true;
    });
  }

  const trees = buildTrees(list.sorted, state.dirs, dirty);
  await forEachLimit(trees.created, ctx.concurrency, (tree) =>
    batch.add(tree.oid, 'tree', tree.content),
  );
  for (const tree of trees.created) store.rememberTree(tree.oid, tree.entries);

  const branch = `run-${input.runId}`;
  const head = await ctx.history.headSha();
  const parent = (await ctx.refs.branch(branch)) ?? head.sha;
  const when = input.timestamp ?? new Date();
  const message = formatMessage(
    input.type,
    input.codonId,
    input.runId,
    input.codonName,
    when,
    input.durationMs,
  );
  const content = serializeCommit(trees.root, [parent], when, message);
  const sha = hashObject('commit', content);
  await batch.add(sha, 'commit', content);
  await batch.finish();

  await ctx.refs.setBranch(branch, sha);
  if (head.branch !== branch) await ctx.refs.setHead({ branch });
  ctx.history.remember(sha, parseCommit(content, sha));

  const treeChanged = trees.root !== state.headTree || trees.created.length > 0;
  const edit = applyEntryUpdates(state, updates, list);
  applyTrees(state.dirs, trees);
  state.headTree = trees.root;
  const entriesChanged = updates.size > 0;
  // The commit is made: from here on nothing may fail the call (a caller would retry and commit
  // twice). The index is a cache and merging packs is upkeep; both are retried next time.
  try {
    if (entriesChanged || treeChanged) await saveState(io, layout, state, clock, edit);
    if (batch.packed) await compactPacks(io, layout, store);
  } catch {
    // best effort, see above
  }

  return {
    sha,
    branch,
    tree: trees.root,
    parent,
    skipped: [...scan.skipped, ...vanished].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    ),
    hashed: hashed.size,
    objectsWritten: batch.written,
    packed: batch.packed && batch.written > 0,
  };
}

/**
 * Below this size a file is read with one blocking call on the real fs: the async `readFile`
 * costs an open, fstat, read and close round trip through the thread pool each.
 */
const QUICK_READ_LIMIT = 256n * 1024n;

/** Reads, hashes and stores one file; undefined when it vanished since its lstat. */
async function hashFile(
  ctx: EngineContext,
  batch: ObjectBatch,
  file: PendingFile,
  clock: bigint,
): Promise<CacheEntry | undefined> {
  const full = join(ctx.layout.workTree, file.path);
  let content: Buffer;
  try {
    if (file.mode === MODE_LINK) content = await ctx.io.readlinkQuick(full);
    else if (file.stat.size < QUICK_READ_LIMIT) content = await ctx.io.readFileQuick(full);
    else content = await ctx.io.fs.readFile(full);
  } catch (error) {
    if (isMissing(error) || hasErrno(error, 'EISDIR', 'EINVAL')) return undefined;
    throw toStorageError(error, `cannot read ${file.path}`, file.path);
  }
  const oid = hashObject('blob', content);
  await batch.add(oid, 'blob', content);
  return entryFromStat(file.path, file.stat, file.mode, oid, clock);
}

/** Throws unless the inputs can form a commit message and a branch name. */
export function assertCheckpointInput(input: CheckpointInput): void {
  if (!Array.isArray(input.files)) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      'files must be an array of relative paths',
      {
        details: { files: typeof input.files },
      },
    );
  }
}

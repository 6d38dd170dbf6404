import { join, sep } from 'node:path';
import { Mutex } from '@hankweave/durable-io';
import { CheckpointError, toStorageError } from './errors.js';
import { commitMerge } from './internal/commit-merge.js';
import type { EngineContext } from './internal/context.js';
import { diffCommits } from './internal/diff.js';
import { History } from './internal/history.js';
import { Io } from './internal/io.js';
import { type Layout, layoutFor, WORKTREE_NAME, WORKTREES_DIR } from './internal/layout.js';
import { mergeBranches } from './internal/merge-branches.js';
import { assertMessageInput } from './internal/message.js';
import { ObjectStore } from './internal/object-store.js';
import { modeString } from './internal/objects.js';
import { readPath } from './internal/read-path.js';
import { assertRunId, Refs } from './internal/refs.js';
import { ensureRepository, sweepRepository } from './internal/repository.js';
import { restoreCheckpoint } from './internal/restore.js';
import { FsClock } from './internal/stat-cache.js';
import { loadState } from './internal/tracked-state.js';
import { flattenTree } from './internal/tree-walk.js';
import { assertRealWorkTree } from './internal/work-tree.js';
import { assertCheckpointInput, writeCheckpoint } from './internal/write-checkpoint.js';
import type {
  CheckpointEngineOptions,
  CheckpointFile,
  CheckpointInfo,
  CheckpointInput,
  CheckpointResult,
  CommitMergeInput,
  CommitMergeResult,
  DiffEntry,
  DiffOptions,
  HeadState,
  MergeInput,
  MergeResult,
  RestoreOptions,
  RestoreResult,
  WorktreeOptions,
} from './types.js';

const MB = 1024 * 1024;

/** The layout of a branch work tree, after checking its name and directory. */
function worktreeLayout(main: Layout, worktree: WorktreeOptions): Layout {
  assertWorktreeName(worktree.name);
  const layout = layoutFor(main.executionDir, worktree);
  const inside = (path: string, dir: string): boolean =>
    path === dir || path.startsWith(`${dir}${sep}`);
  if (
    inside(main.workTree, layout.workTree) ||
    inside(layout.workTree, main.workTree) ||
    inside(layout.workTree, join(main.executionDir, '.hankweave'))
  ) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      `work tree ${layout.workTree} overlaps agentRoot or the checkpoint repository`,
      { details: { name: worktree.name, workTree: layout.workTree } },
    );
  }
  return layout;
}

function assertWorktreeName(name: string): void {
  if (typeof name !== 'string' || !WORKTREE_NAME.test(name)) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      `work tree name ${JSON.stringify(name)} is not 1-128 of A-Z a-z 0-9 . _ -`,
      { details: { name } },
    );
  }
}

/**
 * The shadow git repository of one execution: checkpoint the tracked files, list, diff, read
 * and restore checkpoints. Pure JS (no git binary), and native git reads the repository as its
 * own (seed 002's commands work). Operations on one engine run one at a time; use one engine
 * per execution directory.
 *
 * Every method throws {@link CheckpointError}; the codes are listed per method.
 */
export class CheckpointEngine {
  /** The execution directory (absolute). */
  readonly executionDir: string;
  /** `{executionDir}/.hankweave/checkpoints/.hankweavecheckpoints` (use as `GIT_DIR`). */
  readonly gitDir: string;
  /**
   * `{executionDir}/agentRoot` (use as `GIT_WORK_TREE`), or a branch work tree's directory.
   */
  readonly workTree: string;
  /** The branch work tree's name, or null for the main engine (agentRoot). */
  readonly worktreeName: string | null;
  /** The execution's first, empty commit ("Initial checkpoint setup"), on branch `main`. */
  readonly initialCheckpoint: string;

  private readonly ctx: EngineContext;
  private readonly mutex = new Mutex();
  private closed = false;

  private constructor(
    ctx: EngineContext,
    initialCheckpoint: string,
    private readonly options: CheckpointEngineOptions,
  ) {
    this.ctx = ctx;
    this.worktreeName = ctx.layout.worktree?.name ?? null;
    this.executionDir = ctx.layout.executionDir;
    this.gitDir = ctx.layout.gitDir;
    this.workTree = ctx.layout.workTree;
    this.initialCheckpoint = initialCheckpoint;
  }

  /**
   * Opens the execution's shadow repository, creating it atomically (with its isolated
   * `.gitconfig` and initial commit) when missing. Reopening clears stale `*.lock` files, temp
   * objects and temp repositories left by a killed process, and reloads the stat cache.
   *
   * With `worktree`, opens a branch work tree instead (see {@link CheckpointEngine.worktree}): a
   * new one starts with its HEAD detached at the initial (empty) checkpoint, so `restore(base)`
   * seeds it with every file of `base`; its `open` clears its own leftovers and only shared ones
   * older than `staleLockMs`.
   * @throws {CheckpointError} CHECKPOINT_REPO_CORRUPT when HEAD or its commit is unreadable;
   * CHECKPOINT_INVALID_INPUT for a bad work tree name or agentRoot as a branch work tree;
   * CHECKPOINT_INVALID_PATH when the work tree is a symbolic link or a file;
   * CHECKPOINT_STORAGE_FAILED when the directories cannot be created.
   */
  static async open(options: CheckpointEngineOptions): Promise<CheckpointEngine> {
    const io = new Io(options.fs, options.fsync ?? true);
    const main = layoutFor(options.executionDir);
    const layout = options.worktree ? worktreeLayout(main, options.worktree) : main;
    try {
      if (!layout.worktree) {
        await ensureRepository(io, layout, new Date());
      } else {
        // Never sweep temp repositories or rewrite the config under another writer: only create
        // the repository if there is none.
        if (!(await io.lstat(main.headFile))) await ensureRepository(io, main, new Date());
        await io.fs.mkdir(layout.worktree.dir, { recursive: true });
        await assertRealWorkTree(io, layout.workTree, true);
      }
      const loose = await sweepRepository(io, layout, {
        graceMs: layout.worktree ? (options.staleLockMs ?? 60_000) : 0,
      });
      const store = new ObjectStore(io, layout);
      store.primeLoose(loose);
      await store.loadPacks();
      const refs = new Refs(io, layout.gitDir, layout.headFile);
      const history = new History(io, layout.gitDir, store, refs);
      let initial =
        (await refs.branch('main')) ??
        (await new History(io, layout.gitDir, store, new Refs(io, layout.gitDir)).headSha()).sha;
      for (
        let commit = await history.commit(initial);
        commit.parents.length > 0;
        commit = await history.commit(initial)
      ) {
        initial = commit.parents[0] as string;
      }
      if (layout.worktree && !(await io.lstat(layout.headFile))) {
        await refs.setHead({ sha: initial });
      }
      const head = await history.headSha();
      const headCommit = await history.commit(head.sha);
      const ctx: EngineContext = {
        io,
        layout,
        store,
        refs,
        history,
        clock: new FsClock(io, layout.clockFile),
        state: await loadState(io, layout, store, headCommit.tree),
        maxFileSize: options.maxFileSize ?? 100 * MB,
        packThreshold: options.packThreshold ?? 1,
        concurrency: Math.max(1, options.concurrency ?? 32),
      };
      return new CheckpointEngine(ctx, initial, options);
    } catch (error) {
      throw toStorageError(
        error,
        `cannot open the checkpoint repository in ${layout.checkpointsDir}`,
        layout.gitDir,
      );
    }
  }

  /**
   * Opens a branch work tree over this engine's repository (issue 36 parallel blocks): another
   * engine, with this one's options, bound to `options.workTree`. It shares the objects and the
   * branches, so its checkpoints (on the `run-{runId}` branch each names), `restore`, `diff`,
   * `files` and `merge` work as on agentRoot; it has its own index, stat data and HEAD, so it never
   * moves this engine's HEAD. Engines on one repository may checkpoint at the same time, in one
   * process or several, as long as each branch has one writer. Close it on its own; see
   * {@link CheckpointEngine.removeWorktree} to delete its files.
   * @throws {CheckpointError} as {@link CheckpointEngine.open}.
   */
  worktree(options: WorktreeOptions): Promise<CheckpointEngine> {
    return CheckpointEngine.open({ ...this.options, worktree: options });
  }

  /**
   * Deletes a branch work tree's own files (its index, stat data and HEAD), never an object, a
   * branch or a file of the work tree itself. Close its engine first; a later open of that name
   * starts afresh at the initial checkpoint.
   * @throws {CheckpointError} CHECKPOINT_INVALID_INPUT for a bad name.
   */
  removeWorktree(name: string): Promise<void> {
    return this.run('removeWorktree', async () => {
      assertWorktreeName(name);
      const dir = join(this.ctx.layout.gitDir, WORKTREES_DIR, name);
      if (dir === this.ctx.layout.worktree?.dir) {
        throw new CheckpointError(
          'CHECKPOINT_INVALID_INPUT',
          `work tree ${name} is this engine's own`,
          { details: { name } },
        );
      }
      await this.ctx.io.fs.rm(dir, { recursive: true, force: true });
    });
  }

  /**
   * Commits exactly `input.files` on branch `run-{runId}` (created from HEAD when missing; HEAD
   * is on that branch afterwards), even when nothing changed.
   * @throws {CheckpointError} CHECKPOINT_INVALID_INPUT for a bad type, codon id, run id or
   * duration; CHECKPOINT_INVALID_PATH for a path that is not clean and relative;
   * CHECKPOINT_LOCKED when a git lock is held; CHECKPOINT_STORAGE_FAILED on I/O errors.
   */
  checkpoint(input: CheckpointInput): Promise<CheckpointResult> {
    return this.run('checkpoint', async () => {
      assertMessageInput(input.type, input.codonId, input.durationMs);
      assertRunId(input.runId);
      assertCheckpointInput(input);
      return writeCheckpoint(this.ctx, input);
    });
  }

  /**
   * Makes the tracked files match a checkpoint (created, overwritten, deleted; untracked files
   * untouched) and detaches HEAD at it; no branch moves. The next `checkpoint` starts or
   * continues its run's branch from there.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND, CHECKPOINT_AMBIGUOUS (as `resolve`);
   * CHECKPOINT_STORAGE_FAILED when a file cannot be written.
   */
  restore(ref: string, options: RestoreOptions = {}): Promise<RestoreResult> {
    return this.run('restore', async () =>
      restoreCheckpoint(this.ctx, await this.ctx.history.resolve(ref), options),
    );
  }

  /**
   * Three-way merge of parallel branches' checkpoints against the checkpoint before the block
   * (issue 36), folded in block order: merged = merge3(base, merged, branch_i). Subtrees equal on
   * two sides are taken by id; only paths both sides changed are merged file by file (text line by
   * line; binaries, symlinks and type changes never). Returns `{ ok: true, tree, changed,
   * resolved }` with the tree written to the object store, or with `policy: 'fail'` and any
   * conflict `{ ok: false, conflicts }` and nothing written. `ordered` lets the branch first in
   * block order win each conflict (clean hunks of the others kept) and lists each in `resolved`.
   * No ref, HEAD or work-tree file is changed: see `commitMerge` and `restore`.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND, CHECKPOINT_AMBIGUOUS for `base` or a branch
   * ref (as `resolve`); CHECKPOINT_INVALID_INPUT for an unknown policy, no branches, or an empty,
   * multi-line or repeated branch name; CHECKPOINT_REPO_CORRUPT for a tree with an unsafe entry
   * name (`..`, `.git`, a slash).
   */
  merge(input: MergeInput): Promise<MergeResult> {
    return this.run('merge', () => mergeBranches(this.ctx, input));
  }

  /**
   * Commits a merged tree as a `merge` checkpoint with several parents on branch `run-{runId}`
   * (moved there whatever its tip was: list the old tip among `parents` to keep it in the
   * branch's history). The work tree is untouched; `restore(sha)` writes the merge into agentRoot.
   * If HEAD was on that branch it is detached at its commit first, so HEAD keeps describing the
   * files on disk until the restore.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND for a tree that is not stored or a parent that
   * does not resolve; CHECKPOINT_INVALID_INPUT for no parents, a bad codon id, run id or duration;
   * CHECKPOINT_LOCKED when a git lock is held.
   */
  commitMerge(input: CommitMergeInput): Promise<CommitMergeResult> {
    return this.run('commitMerge', async () => {
      assertMessageInput('merge', input.codonId, input.durationMs);
      assertRunId(input.runId);
      return commitMerge(this.ctx, input);
    });
  }

  /**
   * The full sha for a full or partial (≥ 4 hex digits) sha, a branch name or `HEAD`, searched
   * across all branches.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND; CHECKPOINT_AMBIGUOUS with
   * `details.candidates` ({sha, subject}[]); CHECKPOINT_INVALID_INPUT for < 4 hex digits.
   */
  resolve(ref: string): Promise<string> {
    return this.run('resolve', () => this.ctx.history.resolve(ref));
  }

  /**
   * True when `ref` names a commit of this repository.
   * @throws {CheckpointError} CHECKPOINT_AMBIGUOUS when a partial sha matches several.
   */
  exists(ref: string): Promise<boolean> {
    return this.run('exists', async () => {
      try {
        await this.ctx.history.resolve(ref);
        return true;
      } catch (error) {
        if (
          CheckpointError.is(error, 'CHECKPOINT_NOT_FOUND') ||
          CheckpointError.is(error, 'CHECKPOINT_INVALID_INPUT')
        )
          return false;
        throw error;
      }
    });
  }

  /**
   * Every checkpoint reachable from any branch or HEAD, newest first, parsed from its message.
   * The initial commit and commits without a checkpoint subject are left out.
   */
  list(): Promise<CheckpointInfo[]> {
    return this.run('list', () => this.ctx.history.list());
  }

  /**
   * The files that differ between two checkpoints, in path order, with git's name-status
   * letters and a unified patch each (no rename detection).
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND, CHECKPOINT_AMBIGUOUS (as `resolve`).
   */
  diff(from: string, to: string, options: DiffOptions = {}): Promise<DiffEntry[]> {
    return this.run('diff', async () =>
      diffCommits(
        this.ctx,
        await this.ctx.history.resolve(from),
        await this.ctx.history.resolve(to),
        options,
      ),
    );
  }

  /**
   * A file's bytes at a checkpoint (a symlink's target text for a symlink).
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND when the checkpoint or the file is missing;
   * CHECKPOINT_INVALID_PATH for a path that is not clean and relative.
   */
  readFile(ref: string, path: string): Promise<Buffer> {
    return this.run('readFile', async () =>
      readPath(this.ctx, await this.ctx.history.resolve(ref), path),
    );
  }

  /**
   * Every file in a checkpoint's tree (like `git ls-tree -r`), in path order, with its git mode
   * string (`100644`, `100755`, `120000`) and blob id.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND, CHECKPOINT_AMBIGUOUS (as `resolve`).
   */
  files(ref: string): Promise<CheckpointFile[]> {
    return this.run('files', async () => {
      const commit = await this.ctx.history.commit(await this.ctx.history.resolve(ref));
      const files = await flattenTree(this.ctx.store, commit.tree);
      return files.map((file) => ({ path: file.path, mode: modeString(file.mode), oid: file.oid }));
    });
  }

  /**
   * Like `git rev-list from..to`: the commits reachable from `to` and not from `from`, newest
   * first.
   * @throws {CheckpointError} CHECKPOINT_NOT_FOUND, CHECKPOINT_AMBIGUOUS (as `resolve`).
   */
  shasBetween(from: string, to: string): Promise<string[]> {
    return this.run('shasBetween', async () =>
      this.ctx.history.between(
        await this.ctx.history.resolve(from),
        await this.ctx.history.resolve(to),
      ),
    );
  }

  /** Where HEAD is: the current commit and its branch (null when detached after a restore). */
  head(): Promise<HeadState> {
    return this.run('head', () => this.ctx.history.headSha());
  }

  /** Releases file handles. Later calls fail with CHECKPOINT_CLOSED. */
  close(): Promise<void> {
    return this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      await this.ctx.clock.close();
      await this.ctx.store.close();
    });
  }

  private run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      if (this.closed) {
        throw new CheckpointError('CHECKPOINT_CLOSED', `${operation}() after close()`, {
          details: { operation },
        });
      }
      try {
        return await body();
      } catch (error) {
        throw toStorageError(error, `${operation}() failed`);
      }
    });
  }
}

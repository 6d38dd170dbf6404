import type { Fs } from '@hankweave/durable-io';

/**
 * The moments a checkpoint records (seed 002 "Checkpoint Types"); `merge` is the commit that joins
 * parallel branches of codons (issue 36, {@link CheckpointEngine.commitMerge}). The same list as
 * `@hankweave/types`' (a test holds them equal), kept here because the engine needs only the
 * error toolkit of that package: its crash tests' children bundle nothing else of it.
 */
export const CHECKPOINT_TYPES = [
  'rig-setup',
  'completed',
  'error',
  'skipped',
  'exit',
  'merge',
] as const;

/** One of {@link CHECKPOINT_TYPES}; it is also the `Status:` line of the commit message. */
export type CheckpointType = (typeof CHECKPOINT_TYPES)[number];

/** Options of {@link CheckpointEngine.open}. */
export interface CheckpointEngineOptions {
  /** The execution directory; the work tree is `{executionDir}/agentRoot`. */
  executionDir: string;
  /**
   * The file system (`Fs` from `@hankweave/durable-io`) used for every file operation and
   * forwarded to isomorphic-git. Default `nodeFs`, the real one, with synchronous `lstat` for the
   * stat walk and other fast paths; any other fs sees every call through its promises.
   */
  fs?: Fs;
  /** Files larger than this many bytes are skipped and reported. Default 100 MB. */
  maxFileSize?: number;
  /**
   * A checkpoint that hashes at least this many files writes its new objects as one pack file
   * (undeltified, with its `.idx`); below it, loose objects. Default 1: every checkpoint with a
   * changed file writes one pack, because a durable loose object costs an fsync of its own
   * (measured ~2x slower for a 30-file change at 10k files); small packs are merged as they
   * accumulate. A checkpoint with no changed file writes its commit as one loose object.
   */
  packThreshold?: number;
  /** Files read, hashed and compressed at once. Default 32. */
  concurrency?: number;
  /**
   * fsync objects, the pack, refs and their directories before a call returns. Default true.
   * Turning it off only risks power loss, never a SIGKILL: ordering alone covers that.
   */
  fsync?: boolean;
  /**
   * Open a branch work tree instead of agentRoot (issue 36): same objects and branches, its own
   * index, stat data and HEAD. See {@link WorktreeOptions} and {@link CheckpointEngine.worktree}.
   */
  worktree?: WorktreeOptions;
  /**
   * A branch work tree's `open` leaves shared leftovers (ref locks, temp objects, temp packs)
   * younger than this many milliseconds, since another engine may be writing them. Default
   * 60 000. The main engine's `open` sweeps them all: open it before any branch work tree.
   */
  staleLockMs?: number;
}

/** A branch work tree over the execution's one repository (issue 36 parallel blocks). */
export interface WorktreeOptions {
  /**
   * Its name: 1-128 of `A-Z a-z 0-9 . _ -`, not starting with `.` or `-`. Its index, stat data
   * and HEAD live in `.hankweavecheckpoints/hankweave-worktrees/{name}/`. One engine per name.
   */
  name: string;
  /**
   * The directory it checkpoints and restores, e.g. `{exec}/branches/{block}/{branch}/agentRoot`
   * (created when missing; never agentRoot itself, never a symbolic link).
   */
  workTree: string;
}

/** Arguments of {@link CheckpointEngine.checkpoint}. */
export interface CheckpointInput {
  type: CheckpointType;
  /** Codon id, e.g. `build-schema` or `review#1`; no whitespace. */
  codonId: string;
  /** Human name; newlines and tabs are folded to spaces in the message. */
  codonName: string;
  /** Run id; the commit goes on branch `run-{runId}`, so it must be a valid git ref component. */
  runId: string;
  /** How long the codon ran, in milliseconds (rounded). */
  durationMs: number;
  /**
   * The resolved tracked files, relative POSIX paths under `agentRoot` (any order, duplicates
   * allowed). The commit's tree is exactly these files, so a path left out is recorded as deleted.
   */
  files: readonly string[];
  /**
   * Optional hint: the paths the caller saw change since the previous checkpoint. When given, the
   * engine trusts its stat cache for every other listed path and skips its own `lstat` walk.
   * Listed paths absent from the cache are always examined.
   */
  changed?: readonly string[];
  /** The commit time; default now. */
  timestamp?: Date;
}

/** Why a listed path is not in a checkpoint's tree. */
export type SkipReason =
  /** Larger than `maxFileSize`. */
  | 'too-large'
  /** Inside a nested `.git` directory (excluded by path, never renamed). */
  | 'git-dir'
  /** Listed but gone from disk when the checkpoint ran. */
  | 'missing'
  /** A directory, socket or other non-file entry. */
  | 'not-a-file'
  /** Reached through a symbolic link or below a listed file: git cannot store it. */
  | 'beyond-symlink';

/** A listed path that is not in the checkpoint. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  /** File size in bytes, for `too-large`. */
  size?: number;
}

/** What {@link CheckpointEngine.checkpoint} did. */
export interface CheckpointResult {
  /** The new commit. */
  sha: string;
  /** Its branch, `run-{runId}`. */
  branch: string;
  /** Its root tree. */
  tree: string;
  /** Its parent commit. */
  parent: string;
  /** Listed paths left out of the tree, with the reason. */
  skipped: SkippedFile[];
  /** Files read and hashed (the rest came from the stat cache). */
  hashed: number;
  /** New git objects written (blobs, trees and the commit). */
  objectsWritten: number;
  /** True when the objects went into one pack file rather than loose files. */
  packed: boolean;
}

/** Options of {@link CheckpointEngine.restore}. */
export interface RestoreOptions {
  /**
   * Optional hint, as for `checkpoint`: the tracked paths that changed on disk since the last
   * checkpoint or restore. Every other tracked path is trusted to match the stat cache.
   */
  changed?: readonly string[];
  /**
   * The paths that match the tracked patterns now (the caller's resolver list). Those no
   * checkpoint has yet, and the target does not have, are deleted too: work of an attempt that
   * never reached its checkpoint (a crash, a stop) does not survive a rollback. Paths the target
   * has are restored as usual; untracked files are never touched.
   */
  tracked?: readonly string[];
}

/** What {@link CheckpointEngine.restore} did. */
export interface RestoreResult {
  /** The commit now checked out (HEAD is detached there). */
  sha: string;
  /** Paths created or overwritten. */
  written: string[];
  /** Tracked paths removed because the target does not have them. */
  deleted: string[];
}

/** One checkpoint commit, parsed from its message (seed 002 format). */
export interface CheckpointInfo {
  sha: string;
  type: CheckpointType;
  codonId: string;
  runId: string;
  codonName: string;
  /** The `Timestamp:` line (ISO 8601). */
  timestamp: string;
  /** The `Duration:` line in ms, or null when absent. */
  durationMs: number | null;
  /** `run-{runId}` when that branch contains the commit, else the first branch that does. */
  branch: string | null;
  /** Every branch whose history contains the commit, sorted. */
  branches: string[];
  /** Parent commits. */
  parents: string[];
  /** The whole commit message. */
  message: string;
}

/** Where HEAD points. */
export interface HeadState {
  sha: string;
  /** The branch HEAD is on, or null when detached (after a restore). */
  branch: string | null;
}

/** A file's change between two checkpoints: git's name-status letters (no rename detection). */
export type DiffStatus = 'A' | 'D' | 'M' | 'T';

/** One changed path in {@link CheckpointEngine.diff}. */
export interface DiffEntry {
  path: string;
  status: DiffStatus;
  /** Git mode string (`100644`, `100755`, `120000`) or null when absent on that side. */
  oldMode: string | null;
  newMode: string | null;
  oldOid: string | null;
  newOid: string | null;
  /** True when either side has a NUL byte in its first 8000 bytes (git's rule). */
  binary: boolean;
  /** A `git diff`-style unified patch for this file (`git apply` accepts it); '' if not asked. */
  patch: string;
}

/** Options of {@link CheckpointEngine.diff}. */
export interface DiffOptions {
  /** Only these paths or directories (like `git diff a b -- path`). */
  paths?: readonly string[];
  /** Build the unified patches (default true). */
  patch?: boolean;
  /** Context lines around each change (default 3). */
  context?: number;
}

/** A file in a checkpoint's tree (see {@link CheckpointEngine.files}). */
export interface CheckpointFile {
  path: string;
  /** `100644`, `100755` or `120000`. */
  mode: string;
  oid: string;
}

/** How {@link CheckpointEngine.merge} settles conflicts. */
export type MergePolicy =
  /** Report every conflict and write nothing. */
  | 'fail'
  /** The branch first in block order wins each conflict; every settlement is reported. */
  | 'ordered';

/** One parallel branch to merge: a name for reports and conflict markers, and its checkpoint. */
export interface MergeBranch {
  /** Shown in conflict markers and reports; one line, no control characters. */
  name: string;
  /** A sha (full or partial), branch name or `HEAD`, as `resolve` takes. */
  ref: string;
}

/** Arguments of {@link CheckpointEngine.merge}. */
export interface MergeInput {
  /** The checkpoint before the parallel block: every branch's changes are taken against it. */
  base: string;
  /** The branches in block order (at least one). */
  branches: readonly MergeBranch[];
  policy: MergePolicy;
}

/** Why a path could not be merged. */
export type MergeConflictKind =
  /** Both changed the same (or adjacent) lines of a text file differently, or a symlink's target. */
  | 'content'
  /** Both created the path with different content. */
  | 'add-add'
  /** One changed the path, another deleted it. */
  | 'modify-delete'
  /** File, symlink and directory disagree (one made it a directory, another a file...). */
  | 'type'
  /** Both set a different mode and neither kept the base's (created as executable and not). */
  | 'mode'
  /** Both changed a binary file (a NUL byte in its first 8000 bytes, git's rule) differently. */
  | 'binary';

/** One branch's version of a conflicted path. */
export interface MergeConflictSide {
  branch: string;
  /** Blob (or, for a directory, tree) id; null when the branch deleted the path. */
  sha: string | null;
  /** Git mode string (`100644`, `100755`, `120000`, `40000`); null when deleted. */
  mode: string | null;
}

/** A path the branches changed in ways that do not merge. */
export interface MergeConflict {
  path: string;
  kind: MergeConflictKind;
  /** Every branch that changed the path from the base, in block order. */
  sides: MergeConflictSide[];
  /**
   * For text conflicts: the file with diff3-style markers naming the branches
   * (`<<<<<<< a`, `||||||| base`, `=======`, `>>>>>>> b`) around each conflicting hunk.
   */
  text?: string;
}

/** A conflict that the `ordered` policy settled. */
export interface MergeResolution {
  path: string;
  kind: MergeConflictKind;
  /** The branch whose side was kept: the first in block order that changed the path. */
  winner: string;
  /** The branches whose side of this conflict was dropped. */
  others: string[];
}

/** What {@link CheckpointEngine.merge} returns. */
export type MergeResult =
  | {
      ok: true;
      /** The merged root tree, written to the object store (see `commitMerge`). */
      tree: string;
      /** File paths whose entry differs from the base, in path order. */
      changed: string[];
      /** Conflicts settled by `ordered` (always empty with `fail`). */
      resolved: MergeResolution[];
    }
  | { ok: false; conflicts: MergeConflict[] };

/** Arguments of {@link CheckpointEngine.commitMerge}. */
export interface CommitMergeInput {
  /** A tree id, usually `merge()`'s `tree`. */
  tree: string;
  /** The commits joined, in order (at least one), as `resolve` takes them. */
  parents: readonly string[];
  /** The commit goes on branch `run-{runId}`. */
  runId: string;
  codonId: string;
  codonName: string;
  durationMs: number;
  /** The commit time; default now. */
  timestamp?: Date;
}

/** What {@link CheckpointEngine.commitMerge} did. */
export interface CommitMergeResult {
  sha: string;
  branch: string;
  tree: string;
  parents: string[];
}

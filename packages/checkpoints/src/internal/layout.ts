import { join, resolve } from 'node:path';

/** Where everything lives for one execution directory (seed 002 "Checkpoint Storage"). */
export interface Layout {
  executionDir: string;
  /** `{exec}/.hankweave/checkpoints` */
  checkpointsDir: string;
  /** `{exec}/.hankweave/checkpoints/.hankweavecheckpoints`: named so git never sees a submodule. */
  gitDir: string;
  /** `{exec}/.hankweave/checkpoints/.gitconfig`: the isolated identity. */
  gitConfig: string;
  /**
   * The work tree this engine reads and writes: `{exec}/agentRoot` for the main engine, the
   * caller's directory for a branch work tree.
   */
  workTree: string;
  objectsDir: string;
  packDir: string;
  /** The git index (stat cache + tree cache) of this work tree. */
  indexFile: string;
  /** HEAD of this work tree: the repository's HEAD for agentRoot, a private one otherwise. */
  headFile: string;
  /** The private file whose mtime samples the file system clock (see `FsClock`). */
  clockFile: string;
  /** For a branch work tree: its name and its private directory of per-work-tree files. */
  worktree?: { name: string; dir: string };
}

/** Temp directories a crashed `open` may leave next to the repository. */
export const TEMP_REPO_PREFIX = '.hankweavecheckpoints.tmp-';

/**
 * Where branch work trees keep their own files, inside the git directory. Not git's
 * `worktrees/`: git treats an entry there without a `gitdir` file as prunable, so a hand-run
 * `git gc` would delete it; a directory git does not know is left alone by every git command.
 */
export const WORKTREES_DIR = 'hankweave-worktrees';

/** Work tree names: one path component git and every file system accept. */
export const WORKTREE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function layoutFor(
  executionDir: string,
  worktree?: { name: string; workTree: string },
): Layout {
  const exec = resolve(executionDir);
  const checkpointsDir = join(exec, '.hankweave', 'checkpoints');
  const gitDir = join(checkpointsDir, '.hankweavecheckpoints');
  const base = {
    executionDir: exec,
    checkpointsDir,
    gitDir,
    gitConfig: join(checkpointsDir, '.gitconfig'),
    objectsDir: join(gitDir, 'objects'),
    packDir: join(gitDir, 'objects', 'pack'),
  };
  if (!worktree) {
    return {
      ...base,
      workTree: join(exec, 'agentRoot'),
      indexFile: join(gitDir, 'index'),
      headFile: join(gitDir, 'HEAD'),
      clockFile: join(gitDir, 'hankweave-clock'),
    };
  }
  const dir = join(gitDir, WORKTREES_DIR, worktree.name);
  return {
    ...base,
    workTree: resolve(worktree.workTree),
    indexFile: join(dir, 'index'),
    headFile: join(dir, 'HEAD'),
    clockFile: join(dir, 'hankweave-clock'),
    worktree: { name: worktree.name, dir },
  };
}

/** Loose object path for an id. */
export function loosePath(layout: Layout, oid: string): string {
  return join(layout.objectsDir, oid.slice(0, 2), oid.slice(2));
}

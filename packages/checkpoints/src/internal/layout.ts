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
  /** `{exec}/agentRoot`: the agent's working directory and the repository's work tree. */
  workTree: string;
  objectsDir: string;
  packDir: string;
  indexFile: string;
}

/** Temp directories a crashed `open` may leave next to the repository. */
export const TEMP_REPO_PREFIX = '.hankweavecheckpoints.tmp-';

export function layoutFor(executionDir: string): Layout {
  const exec = resolve(executionDir);
  const checkpointsDir = join(exec, '.hankweave', 'checkpoints');
  const gitDir = join(checkpointsDir, '.hankweavecheckpoints');
  return {
    executionDir: exec,
    checkpointsDir,
    gitDir,
    gitConfig: join(checkpointsDir, '.gitconfig'),
    workTree: join(exec, 'agentRoot'),
    objectsDir: join(gitDir, 'objects'),
    packDir: join(gitDir, 'objects', 'pack'),
    indexFile: join(gitDir, 'index'),
  };
}

/** Loose object path for an id. */
export function loosePath(layout: Layout, oid: string): string {
  return join(layout.objectsDir, oid.slice(0, 2), oid.slice(2));
}

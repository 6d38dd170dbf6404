import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs native git against an execution's shadow repository (seed 002's GIT_DIR/GIT_WORK_TREE). */
export function shadowGit(executionDir: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: executionDir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_DIR: join(executionDir, '.hankweave/checkpoints/.hankweavecheckpoints'),
      GIT_WORK_TREE: join(executionDir, 'agentRoot'),
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: executionDir,
    },
  });
}

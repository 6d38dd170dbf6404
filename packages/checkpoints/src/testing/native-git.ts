import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** Options of {@link runNativeGit}. */
export interface NativeGitOptions {
  /** Bytes to pass on stdin. */
  input?: string | Uint8Array;
  /** Resolve with the result instead of throwing on a non-zero exit. */
  allowFailure?: boolean;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** What {@link runNativeGit} returns. */
export interface NativeGitResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment seed 002 prescribes for inspecting a shadow repository, fully isolated from
 * the machine's git config: `GIT_DIR`, `GIT_WORK_TREE=agentRoot`, no system config, and `HOME`
 * at the checkpoints directory so the isolated `.gitconfig` is the global one (as the original
 * runtime did).
 */
export function nativeGitEnv(executionDir: string): Record<string, string> {
  const exec = resolve(executionDir);
  const checkpoints = join(exec, '.hankweave', 'checkpoints');
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_DIR: join(checkpoints, '.hankweavecheckpoints'),
    GIT_WORK_TREE: join(exec, 'agentRoot'),
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: checkpoints,
    XDG_CONFIG_HOME: checkpoints,
    LC_ALL: 'C',
    GIT_PAGER: 'cat',
  };
}

/**
 * Runs the native `git` binary against an execution's shadow repository (the checker in this
 * package's interop tests; handy in a consumer's tests too). Throws with git's stderr on failure
 * unless `allowFailure`.
 */
export function runNativeGit(
  executionDir: string,
  args: readonly string[],
  options: NativeGitOptions = {},
): NativeGitResult {
  const result = spawnSync('git', args, {
    cwd: join(resolve(executionDir), 'agentRoot'),
    env: { ...nativeGitEnv(executionDir), ...options.env },
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  const out = { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  if (out.status !== 0 && !options.allowFailure) {
    throw new Error(`git ${args.join(' ')} exited ${out.status}: ${out.stderr.trim()}`);
  }
  return out;
}

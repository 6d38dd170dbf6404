import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  defaultExecutionBaseDir,
  executionLayout,
  findNewestExecution,
  hashDataSource,
} from '@hankweave/runtime';
import { isPidAlive, LOCK_STALE_AFTER_MS, readRuntimeLock } from '@hankweave/state';
import type { RuntimeLock } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';

/** How a subcommand names its execution: `-e dir`, or the data it ran on (default: the cwd). */
export interface ExecutionSelector {
  execution?: string;
  data?: string;
}

/**
 * The execution directory a subcommand works on: `-e` as given (it must hold `.hankweave/`), or
 * the newest managed execution created for the data (`--data`, default the cwd), found the way a
 * run resumes one: same data hash, newest name first.
 */
export async function findExecution(
  selector: ExecutionSelector,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (selector.execution !== undefined) {
    const dir = resolve(selector.execution);
    if (!existsSync(join(dir, '.hankweave'))) {
      throw new CliError(
        'CLI_NOT_FOUND',
        `${dir} is not a hankweave execution (it has no .hankweave directory)`,
        'Pass the directory printed as `Execution:` at the end of a run, or omit -e to use the newest execution for --data.',
      );
    }
    return dir;
  }
  const data = resolve(selector.data ?? process.cwd());
  if (!existsSync(data)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `The data path ${data} does not exist`,
      'Pass --data <the data the hank ran on>, or -e <execution dir>.',
    );
  }
  const baseDir = defaultExecutionBaseDir(env);
  const found = await findNewestExecution(baseDir, hashDataSource(data));
  if (!found) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `No execution found for the data ${data} in ${baseDir}`,
      `Pass -e <execution dir>, or --data <the data the hank ran on>${selector.data === undefined ? ' (the default is the current directory)' : ''}. Run a hank first with \`hankweave <hank> <data>\`.`,
    );
  }
  return found;
}

/** The lock of a live runtime holding the execution, or undefined when none runs it. */
export async function liveLock(executionDir: string): Promise<RuntimeLock | undefined> {
  const lock = await readRuntimeLock(executionLayout(executionDir).hankweaveDir).catch(
    () => undefined,
  );
  if (!lock) return undefined;
  const heartbeat = Date.parse(lock.lastHeartbeat);
  const fresh = Number.isNaN(heartbeat) || Date.now() - heartbeat <= LOCK_STALE_AFTER_MS;
  return isPidAlive(lock.pid) && fresh ? lock : undefined;
}

/** True when `path` is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

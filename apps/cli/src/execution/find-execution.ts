import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultExecutionBaseDir, findNewestExecution } from '@hankweave/runtime/layout';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { escapeControlCharacters } from '../output/escape-control.js';
import type { ExecutionSelector } from './execution-options.js';

/** An execution found for some data (the runtime's `ExecutionMatch`, not exported by name). */
type ExecutionMatch = NonNullable<Awaited<ReturnType<typeof findNewestExecution>>>;

/**
 * The data a hank directory runs on when none is given: its `data/` folder when it has one (so
 * editing a prompt or hank.json never changes the data hash), else the directory itself.
 */
export function defaultDataOf(hankDir: string): string {
  const folder = join(hankDir, 'data');
  return existsSync(join(hankDir, 'hank.json')) && isDirectory(folder) ? folder : hankDir;
}

/**
 * The warning for a run whose data is the hank's own directory (no `data/` folder), printed once:
 * the prompts and hank.json are part of the data hash then.
 */
export function hankDirectoryDataWarning(hankDir: string): string {
  return `The data is the hank directory itself (${hankDir}), so editing a prompt or hank.json changes the data and a later run will not resume this execution. Keep the data in its own folder (e.g. ${join(hankDir, 'data')}) and pass it: ${commandHint('<hank>', '<data>')}`;
}

/**
 * The execution directory a subcommand works on: `-e` as given (it must hold `.hankweave/`), or
 * the managed execution for the data (`--data`, default the cwd; for a hank directory also its
 * `data/` folder, which a run of that directory uses), found as a run finds it: the same data hash first, else the newest
 * execution created for the same data path. In that case the data changed since, and `note` says
 * which execution was picked.
 */
export async function findExecution(
  selector: ExecutionSelector,
  env: NodeJS.ProcessEnv = process.env,
  note: (line: string) => void = (line) =>
    process.stderr.write(`${escapeControlCharacters(line)}\n`),
): Promise<string> {
  if (selector.execution !== undefined) {
    const dir = resolve(selector.execution);
    if (!existsSync(join(dir, '.hankweave'))) {
      throw new CliError(
        'CLI_NOT_FOUND',
        existsSync(dir)
          ? `${dir} is not a hankweave execution (it has no .hankweave directory)`
          : `${dir} does not exist`,
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
  // A hank directory (the cwd, or `--data my-hank`) runs on its data/ folder by default
  // (`hankweave my-hank`), or on itself: look for both, the path as given first when it is given.
  const candidates = [
    ...new Set(
      selector.data === undefined ? [defaultDataOf(data), data] : [data, defaultDataOf(data)],
    ),
  ];
  const baseDir = defaultExecutionBaseDir(env);
  let changed: { dataPath: string; match: ExecutionMatch } | undefined;
  for (const dataPath of candidates) {
    const match = await findNewestExecution(baseDir, dataPath);
    if (match?.matchedBy === 'hash') return match.executionDir;
    if (match) changed ??= { dataPath, match };
  }
  if (changed) {
    const { dataPath, match } = changed;
    note(
      `Note: no execution has the current data of ${dataPath}; showing ${match.executionDir}, the newest one created for that path (${match.meta.createdAt}). The data changed since.`,
    );
    return match.executionDir;
  }
  throw new CliError(
    'CLI_NOT_FOUND',
    `No execution found for the data ${data} in ${baseDir}`,
    `Pass -e <execution dir>, or --data <the data the hank ran on>${selector.data === undefined ? ' (the default is the current directory)' : ''}. Run a hank first with \`${commandHint('<hank>', '<data>')}\`.`,
  );
}

/** True when `path` is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

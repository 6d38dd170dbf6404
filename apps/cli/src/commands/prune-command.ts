import { pruneExecutions } from '@hankweave/runtime';
import { sessionLayout } from '@hankweave/sessions';
import { commandHint, shellArg } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import { exactBytes, formatBytes } from '../sessions/format-bytes.js';
import {
  asSessionsCliError,
  parseDurationOption,
  parseStatusList,
  sessionsBaseDir,
} from '../sessions/session-options.js';
import type { PruneOptions } from './prune-flags.js';

/**
 * `hankweave prune`: removes sessions that ended long ago from the registry, with their state
 * files and, with `--executions`, their execution directories, backups and dry-run agent config
 * dirs; prints each path with its size and the total. `--dry-run` removes nothing.
 */
export async function pruneCommand(
  terminal: Terminal,
  options: PruneOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const olderThan = options.olderThan ?? '7d';
  const olderThanMs = parseDurationOption('--older-than', olderThan);
  const statuses = parseStatusList(options.status) ?? ['completed', 'killed'];
  const projectDir = sessionsBaseDir(options.base, env);
  const result = await pruneExecutions({
    projectDir,
    olderThanMs,
    statuses,
    executions: options.executions === true,
    dryRun: options.dryRun === true,
  }).catch((error: unknown) => {
    throw asSessionsCliError(error);
  });
  if (options.json) {
    terminal.out(JSON.stringify(result));
    return 0;
  }
  const { style } = terminal;
  const would = result.dryRun ? 'Would remove' : 'Removed';
  if (result.sessions.length === 0) {
    terminal.out(
      `Nothing to prune: no ${statuses.join(' or ')} session ended more than ${olderThan} ago in ${sessionLayout(projectDir).registryFile}.`,
    );
    terminal.out(
      style.dim(
        `→ Every ended session: ${commandHint('prune', ...pruneArgs({ ...options, olderThan: '0s' }))} (--status adds others).`,
      ),
    );
    return 0;
  }
  terminal.out(
    `${would} ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}: ${result.sessions.join(', ')}`,
  );
  const kindWidth = Math.max(0, ...result.paths.map((path) => path.kind.length));
  const sizes = result.paths.map((path) => formatBytes(path.bytes));
  const sizeWidth = Math.max(0, ...sizes.map((size) => size.length));
  result.paths.forEach((path, index) => {
    terminal.out(
      `  ${path.kind.padEnd(kindWidth)}  ${(sizes[index] ?? '').padStart(sizeWidth)}  ${path.path}`,
    );
  });
  for (const skip of result.skipped) terminal.out(style.dim(`  kept ${skip.path}: ${skip.reason}`));
  const total = `${formatBytes(result.freedBytes)} (${exactBytes(result.freedBytes)} bytes)`;
  terminal.out(result.dryRun ? `Would free ${total}.` : `Freed ${total}.`);
  if (result.dryRun)
    terminal.out(
      style.dim(
        `→ To remove them: ${commandHint('prune', ...pruneArgs({ ...options, dryRun: undefined }))}`,
      ),
    );
  if (!options.executions)
    terminal.out(
      style.dim(
        `→ Execution directories were kept; to remove them too (with their backups and dry-run agent config dirs): ${commandHint('prune', ...pruneArgs({ ...options, executions: true }))}`,
      ),
    );
  return 0;
}

/** The flags of a prune command line, so a suggested variant can be copied as is. */
function pruneArgs(options: PruneOptions): string[] {
  return [
    ...(options.olderThan !== undefined ? ['--older-than', shellArg(options.olderThan)] : []),
    ...(options.status ?? []).flatMap((status) => ['--status', shellArg(status)]),
    ...(options.executions ? ['--executions'] : []),
    ...(options.dryRun ? ['--dry-run'] : []),
    ...(options.base !== undefined ? ['--base', shellArg(options.base)] : []),
  ];
}

import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { liveLock } from '@hankweave/inspection';
import { executionLayout } from '@hankweave/runtime/layout';
import { type CleanupPlan, planCleanup } from '../cleanup/cleanup-plan.js';
import { type Removal, removeEmptyParents, removeInside } from '../cleanup/safe-remove.js';
import {
  forgetSessionRecords,
  type SessionRecords,
  sessionRecordsOf,
} from '../cleanup/session-records.js';
import { withExecutionOptions } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { fit } from '../output/format.js';
import { printable } from '../output/printable.js';
import type { Terminal } from '../output/terminal.js';
import { askYesNo } from '../run/confirm.js';
import type { CommandContext, OptionsOf } from './command-context.js';

const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('cleanup')
      .description(
        'reset an execution: remove what hankweave created in it (checkpoints, rig copies, state) after a preview',
      ),
  )
    .option('-y, --yes', 'remove without asking')
    .option('--dry-run', 'only show what would be removed and kept, and what cannot be undone')
    .option('--json', 'print the plan (and what was removed) as JSON; needs --yes or --dry-run')
    .addHelpText(
      'after',
      `
Removes only what hankweave created in the execution: .hankweave/ (state, events, checkpoints,
agent logs), rigArchive/, the link to the data (never the data), the rig copies of the codons
that ran, and the files of its checkpoints written during the execution. It never follows a
symlink out of the execution. Commands that ran (rig commands, the agents' shell commands)
cannot be undone; the preview lists them.`,
    );

/** The flags of `hankweave cleanup`, inferred from their declaration. */
export type CleanupOptions = OptionsOf<typeof declare>;

/** Adds `hankweave cleanup` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (options) => done(await cleanupCommand(terminal, options)));
}

/** How many irreversible actions and kept files the preview lists before a count. */
const LISTED = 12;

/**
 * `hankweave cleanup`: resets an execution (the original's `--cleanup`). It shows what it would
 * remove (only what hankweave created in the execution), what it keeps, and what no cleanup can
 * undo (commands that ran), asks, then removes; `--yes` skips the question, `--dry-run` only
 * shows. Refused while a runtime runs the execution.
 */
export async function cleanupCommand(terminal: Terminal, options: CleanupOptions): Promise<number> {
  const executionDir = await findExecution(options);
  const lock = await liveLock(executionDir);
  if (lock)
    throw new CliError(
      'CLI_FAILED',
      `${executionDir} is running (pid ${lock.pid}): a cleanup would remove files under it`,
      'Stop it first (Ctrl-C in its terminal, or `hankweave kill <session>`), then clean up.',
    );
  const plan = await planCleanup(executionDir);
  const records = await sessionRecordsOf(executionDir);
  if (options.json && options.dryRun) {
    terminal.out(JSON.stringify({ dryRun: true, ...planJson(plan), sessions: records }));
    return 0;
  }
  if (!options.json) printPlan(terminal, plan, records);
  if (options.dryRun) {
    terminal.out(
      terminal.style.dim(
        `→ Nothing was removed (--dry-run). Remove it: ${commandHint('cleanup', '-e', shellArg(executionDir), '--yes')}`,
      ),
    );
    return 0;
  }
  if (!options.yes) {
    if (!(process.stdin.isTTY && terminal.isTTY) || options.json)
      throw new CliError(
        'CLI_USAGE',
        'cleanup removes files and asks first, but there is no terminal to ask on',
        `Pass --yes to remove them (preview with --dry-run): ${commandHint('cleanup', '-e', shellArg(executionDir), '--yes')}`,
      );
    if (!(await askYesNo('Remove the paths listed above? This cannot be undone.'))) {
      terminal.out('Nothing was removed.');
      return 0;
    }
  }
  const removals = plan.remove.map((item) => removeInside(executionDir, item.path));
  for (const item of plan.remove) removeEmptyParents(dirname(item.path), executionDir);
  const agentRoot = executionLayout(executionDir).agentRoot;
  removeEmptyDirectory(agentRoot);
  const executionRemoved = removeEmptyDirectory(executionDir);
  const sessions = await forgetSessionRecords(records);
  if (options.json) {
    terminal.out(
      JSON.stringify({ ...planJson(plan), removals, executionRemoved, sessionsRemoved: sessions }),
    );
    return 0;
  }
  const { style } = terminal;
  const done = removals.filter(
    (removal): removal is Extract<Removal, { removed: string }> => removal.removed !== false,
  );
  const entries = done.reduce((sum, removal) => sum + removal.entries, 0);
  terminal.out(
    `${style.green('✓')} Removed ${done.length} path(s) (${entries} file(s), link(s) and folder(s))${plan.keep.length > 0 ? `; kept ${plan.keep.length} file(s) hankweave did not create` : ''}.`,
  );
  for (const refused of removals.filter((removal) => removal.removed === false))
    if (refused.removed === false && refused.reason !== 'already gone')
      terminal.out(style.yellow(`! Left ${printable(refused.path)}: ${refused.reason}`));
  terminal.out(
    style.dim(
      executionRemoved
        ? `The execution directory is gone; the next run of the hank on this data starts a new one.`
        : `${executionDir} is no longer an execution; the next run of the hank on this data starts a new one.`,
    ),
  );
  return 0;
}

function planJson(plan: CleanupPlan) {
  return {
    executionDir: plan.executionDir,
    remove: plan.remove.map(({ path, why }) => ({ path, why })),
    keep: plan.keep.map(({ path, why }) => ({ path, why })),
    irreversible: plan.irreversible,
  };
}

/** The preview: what goes, what stays, what cannot be undone. */
function printPlan(terminal: Terminal, plan: CleanupPlan, records: SessionRecords): void {
  const { style } = terminal;
  terminal.out(`${style.bold('Cleanup of')} ${plan.executionDir}`);
  terminal.out();
  terminal.out(style.bold('Removes (only what hankweave created here):'));
  const width = Math.min(48, Math.max(...plan.remove.map((item) => item.shown.length), 10)) + 2;
  for (const item of plan.remove)
    terminal.out(`  ${fit(printable(item.shown), width)}${style.dim(printable(item.why))}`);
  if (records.keys.length > 0)
    terminal.out(
      `  ${style.dim(`and its ${records.keys.length} session record(s) in ${records.claudeDir}: ${records.keys.map(printable).join(', ')}`)}`,
    );
  if (plan.keep.length > 0) {
    terminal.out(style.bold('Keeps (hankweave did not create these):'));
    for (const item of plan.keep.slice(0, LISTED))
      terminal.out(`  ${fit(printable(item.shown), width)}${style.dim(printable(item.why))}`);
    if (plan.keep.length > LISTED) terminal.out(`  … and ${plan.keep.length - LISTED} more`);
  }
  terminal.out(
    style.bold('Cannot be undone') +
      ' (commands that ran: their effects outside these files, such as network calls or files elsewhere, stay):',
  );
  if (plan.irreversible.length === 0) terminal.out(style.dim('  (no command ran)'));
  for (const action of plan.irreversible.slice(0, LISTED))
    terminal.out(`  ${printable(action.codonId)}: ${printable(action.what)}`);
  if (plan.irreversible.length > LISTED)
    terminal.out(`  … and ${plan.irreversible.length - LISTED} more`);
  terminal.out(style.dim('The data the hank ran on is never touched.'));
  terminal.out();
}

/** Removes `dir` when it is an empty directory; true when it is gone. */
function removeEmptyDirectory(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return !existsSync(dir);
  }
}

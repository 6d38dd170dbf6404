import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { openCheckpointsReadOnly, readExecutionState } from '@hankweave/inspection';
import { completeWith } from '../completion/value-sources.js';
import { withExecutionOptions } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { commandHint } from '../output/command-hint.js';
import { dateTime, fit, shortSha } from '../output/format.js';
import { branchLanesOf, laneLabel, lanesOf } from '../output/lanes.js';
import type { Terminal } from '../output/terminal.js';
import type { CommandContext, OptionsOf } from './command-context.js';

const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('checkpoints')
      .description('every checkpoint (type, codon, run, branch, sha, time), newest first'),
  )
    .addOption(completeWith(new Option('--codon <id>', 'only checkpoints of this codon'), 'codons'))
    .addOption(completeWith(new Option('--run <runId>', 'only checkpoints of this run'), 'runs'))
    .addOption(
      completeWith(
        new Option(
          '--branch <block/branch>',
          "only checkpoints of a parallel block's branch (a branch id alone when unique)",
        ),
        'branches',
      ),
    )
    .addOption(
      new Option('--type <type>', 'only checkpoints of this type').choices([
        'rig-setup',
        'completed',
        'error',
        'skipped',
        'exit',
      ]),
    )
    .option('--json', 'print one JSON object per checkpoint');

/** The flags of `hankweave checkpoints`, inferred from their declaration. */
export type CheckpointsOptions = OptionsOf<typeof declare>;

/** Adds `hankweave checkpoints` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (options) => done(await checkpointsCommand(terminal, options)));
}

/** `hankweave checkpoints`: every checkpoint of every run, newest first. Read-only. */
export async function checkpointsCommand(
  terminal: Terminal,
  options: CheckpointsOptions,
): Promise<number> {
  const executionDir = await findExecution(options);
  const inBranch = options.branch
    ? branchFilter(await readExecutionState(executionDir), options.branch)
    : undefined;
  const engine = await openCheckpointsReadOnly(executionDir);
  try {
    const head = await engine.head();
    const matchesCodon = (codonId: string) =>
      !options.codon || codonId === options.codon || codonId.startsWith(`${options.codon}#`);
    const list = (await engine.list()).filter(
      (checkpoint) =>
        matchesCodon(checkpoint.codonId) &&
        (!inBranch || inBranch(checkpoint.codonId)) &&
        (!options.run || checkpoint.runId === options.run) &&
        (!options.type || checkpoint.type === options.type),
    );
    if (options.json) {
      for (const checkpoint of list) {
        const { message: _message, ...rest } = checkpoint;
        terminal.out(JSON.stringify({ ...rest, head: checkpoint.sha === head.sha }));
      }
      return 0;
    }
    const { style } = terminal;
    if (list.length === 0) {
      terminal.out(
        `No checkpoints${options.codon || options.run || options.type || options.branch ? ' match the filters' : ' yet'} in ${executionDir}`,
      );
      return 0;
    }
    const codonWidth = Math.max(5, ...list.map((checkpoint) => checkpoint.codonId.length));
    const runWidth = Math.max(3, ...list.map((checkpoint) => checkpoint.runId.length));
    const branchWidth = Math.max(6, ...list.map((checkpoint) => (checkpoint.branch ?? '').length));
    terminal.out(
      style.bold(
        `  ${fit('TYPE', 10)} ${fit('CODON', codonWidth)} ${fit('RUN', runWidth)} ${fit('BRANCH', branchWidth)} ${fit('SHA', 7)}  TIME`,
      ),
    );
    for (const checkpoint of list) {
      const mark = checkpoint.sha === head.sha ? style.cyan('*') : ' ';
      const type = fit(checkpoint.type, 10);
      const colouredType =
        checkpoint.type === 'completed'
          ? style.green(type)
          : checkpoint.type === 'error'
            ? style.red(type)
            : type;
      terminal.out(
        `${mark} ${colouredType} ${fit(checkpoint.codonId, codonWidth)} ${fit(checkpoint.runId, runWidth)} ${fit(checkpoint.branch ?? '', branchWidth)} ${style.yellow(shortSha(checkpoint.sha))}  ${dateTime(checkpoint.timestamp)}`,
      );
    }
    terminal.out(
      style.dim(
        `${list.length} checkpoint(s); * = HEAD${head.branch ? ` (on ${head.branch})` : ' (detached after a rollback)'}. Compare two with \`${commandHint('diff', '<a>', '<b>')}\`, restore one with \`${commandHint('rollback', '<sha>')}\`.`,
      ),
    );
    return 0;
  } finally {
    await engine.close();
  }
}

/**
 * `--branch review/left`: true for a checkpoint of a codon of that branch (every checkpoint a
 * branch's codons take is on its git branch `run-<run>.review.left`). A name no branch has is a
 * usage error listing the branches there are.
 */
export function branchFilter(
  state: Parameters<typeof lanesOf>[0],
  branch: string,
): (codonId: string) => boolean {
  const lanes = lanesOf(state);
  const named = branchLanesOf([branch], lanes) ?? new Set<string>();
  return (codonId) => {
    const parallel = lanes.get(codonId);
    return parallel !== undefined && named.has(laneLabel(parallel));
  };
}

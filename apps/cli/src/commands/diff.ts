import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { DiffEntry } from '@hankweave/checkpoints';
import {
  openCheckpointsReadOnly,
  type ResolvedRef,
  readExecutionState,
  resolveCheckpointRef,
} from '@hankweave/inspection';
import { completeWith } from '../completion/value-sources.js';
import { withExecutionOptions } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { branchCodonRef } from '../output/lanes.js';
import type { Style, Terminal } from '../output/terminal.js';
import { collect } from './collect.js';
import type { CommandContext, OptionsOf } from './command-context.js';

const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('diff')
      .description('what changed between two checkpoints (or in one, against its parent)'),
  )
    .addArgument(
      completeWith(
        new Argument(
          '<a>',
          'a checkpoint: sha, codon, codon:type (type: rig-setup, completed, error, skipped, start, end), or a parallel branch (block/branch[:type]: its newest codon)',
        ),
        'codons',
      ),
    )
    .addArgument(
      completeWith(
        new Argument('[b]', 'a second checkpoint (default: compare <a> with its parent)'),
        'codons',
      ),
    )
    .option('--name-only', 'only the name-status list, no patch')
    .option('--path <path>', 'only this file or directory (repeatable)', collect)
    .option('--json', 'print as JSON');

/** The flags of `hankweave diff`, inferred from their declaration. */
export type DiffOptions = OptionsOf<typeof declare>;

/** Adds `hankweave diff <a> [b]` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (a, b, options) =>
    done(await diffCommand(terminal, a, b, options)),
  );
}

/**
 * `hankweave diff <a> [b]`: name-status and a unified patch between two checkpoints (codon refs
 * or shas). With one reference, what that checkpoint changed against its parent. Read-only.
 */
export async function diffCommand(
  terminal: Terminal,
  a: string,
  b: string | undefined,
  options: DiffOptions,
): Promise<number> {
  const executionDir = await findExecution(options);
  const state = await readExecutionState(executionDir);
  // A parallel block's branch (`review/left`) stands for its newest codon: its branch's end.
  const resolve = (ref: string) =>
    resolveCheckpointRef(branchCodonRef(ref, state) ?? ref, state, engine, commandHint);
  const engine = await openCheckpointsReadOnly(executionDir);
  try {
    let from: ResolvedRef;
    let to: ResolvedRef;
    if (b === undefined) {
      to = await resolve(a);
      const info = (await engine.list()).find((checkpoint) => checkpoint.sha === to.sha);
      const parent = info?.parents[0];
      if (!parent)
        throw new CliError(
          'CLI_NOT_FOUND',
          `${to.label} has no parent checkpoint to compare with`,
          `Pass two references: \`${commandHint('diff', '<a>', '<b>')}\`.`,
        );
      from = { sha: parent, label: `${parent.slice(0, 7)} (its parent)` };
    } else {
      from = await resolve(a);
      to = await resolve(b);
    }
    const entries = await engine.diff(from.sha, to.sha, {
      patch: !options.nameOnly,
      ...(options.path?.length ? { paths: options.path } : {}),
    });
    if (options.json) {
      terminal.out(JSON.stringify({ from: from.sha, to: to.sha, files: entries }));
      return 0;
    }
    const { style } = terminal;
    terminal.out(style.bold(`diff ${from.label} → ${to.label}`));
    if (entries.length === 0) {
      terminal.out(style.dim('No tracked file differs.'));
      return 0;
    }
    for (const entry of entries) terminal.out(`${statusColour(entry, style)}  ${entry.path}`);
    if (!options.nameOnly) {
      for (const entry of entries) {
        terminal.out();
        if (entry.binary) terminal.out(style.dim(`Binary file ${entry.path} differs`));
        else
          for (const line of entry.patch.replace(/\n$/, '').split('\n'))
            terminal.out(colourPatchLine(line, style));
      }
    }
    return 0;
  } finally {
    await engine.close();
  }
}

function statusColour(entry: DiffEntry, style: Style): string {
  if (entry.status === 'A') return style.green('A');
  if (entry.status === 'D') return style.red('D');
  return style.yellow(entry.status);
}

function colourPatchLine(line: string, style: Style): string {
  if (
    line.startsWith('+++') ||
    line.startsWith('---') ||
    line.startsWith('diff --git') ||
    line.startsWith('index ')
  )
    return style.bold(line);
  if (line.startsWith('@@')) return style.cyan(line);
  if (line.startsWith('+')) return style.green(line);
  if (line.startsWith('-')) return style.red(line);
  return line;
}

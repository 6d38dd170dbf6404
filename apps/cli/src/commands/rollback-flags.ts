import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { completeWith } from '../completion/value-sources.js';
import { withExecutionOptions } from '../execution/execution-options.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('rollback')
      .description(
        'restore a checkpoint on a stopped execution; the next run continues from there',
      ),
  )
    .addArgument(
      completeWith(
        new Argument(
          '<target>',
          "last-success, a codon or codon:type (default type: end), a parallel block's branch (block/branch[:type]: its newest codon), or a checkpoint sha",
        ),
        'targets',
      ),
    )
    .option('-f, --force', 'relink the data source if it changed since the execution was created')
    .option('--json', 'print the rollback events as NDJSON');

/** The flags of `hankweave rollback`, inferred from their declaration. */
export type RollbackOptions = OptionsOf<typeof declare>;

import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { OptionsOf } from '../commands/command-context.js';

/**
 * Adds the flags of every command that works on an existing execution (`-e, --execution` and
 * `--data`, the `ExecutionSelector` that `findExecution` takes), keeping the command's inferred
 * option types.
 */
export function withExecutionOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  GlobalOpts extends OptionValues,
>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .option('-e, --execution <dir>', 'the execution directory (default: the newest one for --data)')
    .option(
      '--data <path>',
      'find the newest execution created for this data (default: the current directory)',
    );
}

/**
 * How a subcommand names its execution (`-e dir`, or the data it ran on), as `findExecution`
 * takes it: inferred from {@link withExecutionOptions}, so renaming either flag fails typecheck.
 */
export type ExecutionSelector = OptionsOf<
  typeof withExecutionOptions<[], Record<never, never>, Record<never, never>>
>;

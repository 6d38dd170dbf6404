import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { dynamicValues } from '../completion/dynamic-values.js';
import { DYNAMIC_VALUES } from '../completion/value-sources.js';
import type { CommandContext } from './command-context.js';

/** The hidden command the completion scripts call. */
export const COMPLETE_COMMAND = '__complete';

/**
 * Adds the hidden `hankweave __complete <kind> [-- words...]` to `program`: what the completion
 * scripts call for values that depend on the executions here (codon ids, run ids, session keys;
 * one per line, from the words typed so far after `--`).
 */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  program
    .command(COMPLETE_COMMAND, { hidden: true })
    .addArgument(new Argument('<kind>').choices(DYNAMIC_VALUES))
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action((kind, words = []) => {
      for (const value of dynamicValues(kind, words)) terminal.out(value);
      done(0);
    });
}

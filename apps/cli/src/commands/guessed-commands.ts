import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { CliError } from '../output/cli-error.js';
import type { CommandContext } from './command-context.js';

/**
 * Words people try first to list their runs. Without a command of that name they would be read
 * as a hank named "list"; each is a hidden command that only points at `sessions`.
 */
export const GUESSED_COMMANDS = ['list', 'executions'] as const;

/** Adds the hidden {@link GUESSED_COMMANDS} to `program`: each fails with a usage hint. */
export function register(program: CommandUnknownOpts, { hint }: CommandContext): void {
  for (const name of GUESSED_COMMANDS) {
    program
      .command(name, { hidden: true })
      .argument('[args...]')
      .allowUnknownOption()
      .action(() => {
        throw new CliError(
          'CLI_USAGE',
          `\`hankweave ${name}\` is not a command`,
          `List the runs with \`${hint('sessions')}\` (alias \`ls\`); to run a hank in a directory called ${name}, write \`${hint(`./${name}`)}\`.`,
        );
      });
  }
}

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './ui-flags.js';

/** Adds `hankweave ui` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (options) =>
      done(await (await import('./ui-command.js')).uiCommand(terminal, options)),
    );
}

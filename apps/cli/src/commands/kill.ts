import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './kill-flags.js';

/** Adds `hankweave kill <session>` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (session, options) =>
      done(await (await import('./kill-command.js')).killCommand(terminal, session, options)),
    );
}

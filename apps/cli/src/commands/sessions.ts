import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './sessions-flags.js';

/** Adds `hankweave sessions` (alias `ls`) to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (options) =>
      done(await (await import('./sessions-command.js')).sessionsCommand(terminal, options)),
    );
}

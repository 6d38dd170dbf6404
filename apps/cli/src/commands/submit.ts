import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './submit-flags.js';

/** Adds `hankweave submit <hank> <data>` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (hank, data, options) =>
      done(
        await (await import('./submit-command.js')).submitCommand(terminal, hank, data, options),
      ),
    );
}

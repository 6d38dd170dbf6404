import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './doctor-flags.js';

/** Adds `hankweave doctor [hank]` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (hank, options) =>
      done(await (await import('./doctor-command.js')).doctorCommand(terminal, hank, options)),
    );
}

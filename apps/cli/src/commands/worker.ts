import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './worker-flags.js';

/** Adds `hankweave worker` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (options) =>
      done(await (await import('./worker-command.js')).workerCommand(terminal, options)),
    );
}

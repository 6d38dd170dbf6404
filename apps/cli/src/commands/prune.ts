import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './prune-flags.js';

/** Adds `hankweave prune` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (options) =>
      done(await (await import('./prune-command.js')).pruneCommand(terminal, options)),
    );
}

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './rollback-flags.js';

/** Adds `hankweave rollback <target>` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  flags
    .declare(program)
    .action(async (target, options) =>
      done(
        await (await import('./rollback-command.js')).rollbackCommand(terminal, target, options),
      ),
    );
}

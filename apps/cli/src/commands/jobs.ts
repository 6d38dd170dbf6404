import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './jobs-flags.js';

/** Adds `hankweave jobs` and its subcommand `jobs cancel <id>` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  const jobs = flags
    .declareJobs(program)
    .action(async (options) =>
      done(await (await import('./jobs-command.js')).jobsCommand(terminal, options)),
    );
  // `jobs --redis <url> cancel <id>` works too: the flags given to `jobs` are cancel's defaults.
  flags.declareCancel(jobs).action(async (id, options, command) =>
    done(
      await (await import('./jobs-command.js')).cancelCommand(terminal, id, {
        ...command.parent?.opts(),
        ...options,
      }),
    ),
  );
}

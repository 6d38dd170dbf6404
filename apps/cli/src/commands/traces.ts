import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './command-context.js';
import * as flags from './traces-flags.js';

/** Adds `hankweave traces` and its subcommand `traces export` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  const traces = flags.declareTraces(program);
  flags
    .declareExport(traces)
    .action(async (options) =>
      done(await (await import('./traces-command.js')).tracesExportCommand(terminal, options)),
    );
}

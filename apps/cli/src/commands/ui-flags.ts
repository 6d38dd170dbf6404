import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  program
    .command('ui')
    .description(
      'a local web dashboard of the executions: runs, codon timeline, costs, checkpoints, live events',
    )
    .option('-p, --port <port>', 'the port (default 0: any free port)')
    .option('--host <address>', 'the address to listen on (default 127.0.0.1)')
    .option('--allow-remote', 'allow a --host that is not loopback (the token is still required)')
    .option('--open', 'open the dashboard in the browser')
    .option('--write', 'allow actions: rollback, skip, force-stop and next')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option(
      '--postgres <url>',
      "also list a fleet's executions, as its workers (--postgres) copied them to this database",
    )
    .option('--json', 'print {url, port, token} as one JSON line');

/** The flags of `hankweave ui`, inferred from their declaration. */
export type UiOptions = OptionsOf<typeof declare>;

import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { completeWith } from '../completion/value-sources.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  program
    .command('kill')
    .description(
      'stop a running session from another terminal: SIGTERM, then SIGKILL after --grace',
    )
    .addArgument(
      completeWith(
        new Argument(
          '<session>',
          'a session key, the key without pipeline-/loop-, or a unique start of it',
        ),
        'sessions',
      ),
    )
    .option('--grace <duration>', 'how long SIGTERM may take before SIGKILL (10s, 1m, ...)', '10s')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option('--json', 'print the outcome as JSON');

/** The flags of `hankweave kill`, inferred from their declaration. */
export type KillOptions = OptionsOf<typeof declare>;

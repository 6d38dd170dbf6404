import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { completeWith } from '../completion/value-sources.js';
import { SESSION_STATUSES } from '../sessions/session-statuses.js';
import { collect } from './collect.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  program
    .command('sessions')
    .alias('ls')
    .description(
      'every run of the executions directory (running, completed, killed), newest first; --check finds zombies',
    )
    .option('--json', 'print an array of session summaries (with the raw registry entry)')
    .addOption(
      completeWith(
        new Option(
          '--status <list>',
          'only these statuses: running, completed, killed, unknown_termination (comma-separated)',
        ).argParser(collect),
        SESSION_STATUSES,
      ),
    )
    .option('--all', 'every entry (default: running sessions and those started in the last 7 days)')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option(
      '--postgres <url>',
      'the executions of a fleet instead, as its workers (--postgres) copied them there',
    )
    .option(
      '--check',
      'report orphaned state files, zombies (fixed), stale sessions and stale locks; exit 1 if any is left',
    )
    .option(
      '-y, --yes',
      'with --check: kill sessions running for more than 8 hours without asking',
    );

/** The flags of `hankweave sessions`, inferred from their declaration. */
export type SessionsOptions = OptionsOf<typeof declare>;

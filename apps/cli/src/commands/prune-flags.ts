import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { completeWith } from '../completion/value-sources.js';
import { SESSION_STATUSES } from '../sessions/session-statuses.js';
import { collect } from './collect.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  program
    .command('prune')
    .description(
      'remove sessions that ended long ago (and with --executions their execution directories)',
    )
    .option('--older-than <duration>', 'only sessions that ended more than this long ago', '7d')
    .addOption(
      completeWith(
        new Option(
          '--status <list>',
          'only these statuses (default completed,killed; running is never pruned)',
        ).argParser(collect),
        SESSION_STATUSES,
      ),
    )
    .option(
      '--executions',
      'also remove the execution directories, their .hankweave.backup-* folders and dry-run agent config dirs',
    )
    .option('--dry-run', 'print what would be removed and freed; remove nothing')
    .option('--json', 'print the result as JSON (exact bytes)')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)');

/** The flags of `hankweave prune`, inferred from their declaration. */
export type PruneOptions = OptionsOf<typeof declare>;

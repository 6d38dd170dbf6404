import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { JOB_STATUSES } from '@hankweave/queue/job-statuses';
import { completeWith } from '../completion/value-sources.js';
import { withQueueOptions } from '../queue/queue-flags.js';
import { collect } from './collect.js';
import type { OptionsOf } from './command-context.js';

export const declareJobs = (program: CommandUnknownOpts) =>
  withQueueOptions(
    program
      .command('jobs')
      .description(
        'the jobs of a queue: status, hank, progress, cost, worker (cancel: jobs cancel)',
      ),
  )
    .addOption(
      completeWith(
        new Option(
          '--status <list>',
          'only these: active, waiting, prioritized, delayed, completed, failed (comma-separated)',
        ).argParser(collect),
        JOB_STATUSES,
      ),
    )
    .option('-n, --limit <count>', 'the newest jobs of each status', '100')
    .option('--json', 'print an array of job summaries (progress and result included)');

export const declareCancel = (jobs: CommandUnknownOpts) =>
  withQueueOptions(
    jobs
      .command('cancel')
      .description('remove a waiting job, or stop a running one gracefully (it stays resumable)')
      .argument('<id>', 'the job id'),
  )
    .option('--reason <text>', 'recorded in the job failure')
    .option('--no-wait', 'return at once instead of waiting for a running job to stop')
    .option('--json', 'print the outcome as JSON');

/** The flags of `hankweave jobs`, inferred from their declaration. */
export type JobsOptions = OptionsOf<typeof declareJobs>;

/** The flags of `hankweave jobs cancel`, inferred from their declaration. */
export type CancelOptions = OptionsOf<typeof declareCancel>;

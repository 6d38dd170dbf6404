import { JOB_STATUSES } from '@hankweave/queue';
import { type Command, Option } from 'commander';
import { cancelCommand, jobsCommand } from '../commands/jobs.js';
import { submitCommand } from '../commands/submit.js';
import { workerCommand } from '../commands/worker.js';
import { completeWith } from '../completion/value-sources.js';
import { POSTGRES_URL_ENV } from '../fleet/postgres-options.js';
import type { Terminal } from '../output/terminal.js';
import { REDIS_URL_ENV } from './queue-options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const REDIS_HELP = `the Redis of the fleet, redis://host:6379 (default $${REDIS_URL_ENV})`;
const QUEUE_HELP = 'the queue name (default hankweave)';

/** `submit`, `worker` and `jobs` (with `jobs cancel`): running hanks on a fleet (BullMQ on Redis). */
export function registerQueueCommands(
  program: Command,
  terminal: Terminal,
  done: (code: number) => void,
): void {
  program
    .command('submit')
    .description('queue a hank run for the workers of a fleet; prints the job id')
    .argument('<hank>', 'hank.json, or a directory holding one (on storage every worker sees)')
    .argument('<data>', 'the data the agents read (on storage every worker sees)')
    .option('--redis <url>', REDIS_HELP)
    .option('--queue <name>', QUEUE_HELP)
    .option('--scripted-model <script.json>', 'dry run: the worker answers the agent from a script')
    .option('-m, --model <id>', 'use this model for every codon')
    .option('--max-cost <usd>', 'a dollar ceiling for the whole hank (> 0)')
    .option('--max-time <seconds>', 'a time ceiling for the whole hank (> 0)')
    .option(
      '--env <names>',
      "variables the run needs from each worker's environment (names only; repeatable)",
      collect,
    )
    .option('-e, --execution <dir>', 'run in this execution directory (resumed when it exists)')
    .option('--base <dir>', 'fix the execution directory now as <dir>/jobs/<id>')
    .option('--copy', 'copy the data into the execution instead of linking it')
    .option('--json', 'print {jobId, queue, hank, data} as JSON')
    .action(async (hank: string, data: string, options) =>
      done(await submitCommand(terminal, hank, data, options)),
    );

  program
    .command('worker')
    .description(
      'run queued hanks until SIGINT/SIGTERM (which hands running ones back to the queue)',
    )
    .option('--redis <url>', REDIS_HELP)
    .option('--queue <name>', QUEUE_HELP)
    .option('-c, --concurrency <n>', 'jobs run at once', '1')
    .option(
      '--base <dir>',
      'where job executions live, <dir>/jobs/<id>: the same shared path on every worker (default: the managed executions directory)',
    )
    .option(
      '--postgres <url>',
      `also copy every execution's events and state to this database, for fleet views (default $${POSTGRES_URL_ENV})`,
    )
    .option('--name <name>', "this worker's name in job listings (default host:pid)")
    .option('--require-sandbox', 'fail jobs that cannot run in the OS sandbox (bubblewrap)')
    .option('--no-sandbox', 'run jobs without the OS sandbox around agents and commands')
    .option('--json', 'print every worker event as one NDJSON line')
    .option('--lock-duration <duration>', "how long a job's queue lock lasts unrenewed", '30s')
    .option('--stalled-interval <duration>', 'how often to look for stalled jobs', '15s')
    .option('--max-stalled <n>', 'stalls a job survives before it fails', '2')
    .option(
      '--locked-retry <duration>',
      'how long a job waits when another live process holds its execution',
      '30s',
    )
    .action(async (options) => done(await workerCommand(terminal, options)));

  const jobs = program
    .command('jobs')
    .description('the jobs of a queue: status, hank, progress, cost, worker (cancel: jobs cancel)')
    .option('--redis <url>', REDIS_HELP)
    .option('--queue <name>', QUEUE_HELP)
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
    .option('--json', 'print an array of job summaries (progress and result included)')
    .action(async (options) => done(await jobsCommand(terminal, options)));

  jobs
    .command('cancel')
    .description('remove a waiting job, or stop a running one gracefully (it stays resumable)')
    .argument('<id>', 'the job id')
    .option('--redis <url>', REDIS_HELP)
    .option('--queue <name>', QUEUE_HELP)
    .option('--reason <text>', 'recorded in the job failure')
    .option('--no-wait', 'return at once instead of waiting for a running job to stop')
    .option('--json', 'print the outcome as JSON')
    .action(async (id: string, options, command: Command) =>
      done(await cancelCommand(terminal, id, { ...command.parent?.opts(), ...options })),
    );
}

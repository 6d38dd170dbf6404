import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { POSTGRES_URL_ENV } from '../fleet/postgres-env.js';
import { withQueueOptions } from '../queue/queue-flags.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  withQueueOptions(
    program
      .command('worker')
      .description(
        'run queued hanks until SIGINT/SIGTERM (which hands running ones back to the queue)',
      ),
  )
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
    .option(
      '--metrics-port <port>',
      'serve Prometheus metrics (queue depth, job states, codon durations, costs, tokens, failures) at http://<host>:<port>/metrics',
    )
    .option(
      '--metrics-host <host>',
      'the address --metrics-port listens on (another than loopback exposes the metrics to the network)',
      '127.0.0.1',
    );

/** The flags of `hankweave worker`, inferred from their declaration. */
export type WorkerOptions = OptionsOf<typeof declare>;

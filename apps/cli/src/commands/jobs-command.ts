import {
  cancelJob,
  DEFAULT_QUEUE_NAME,
  JOB_STATUSES,
  type JobStatus,
  listJobs,
} from '@hankweave/queue';
import { CliError } from '../output/cli-error.js';
import type { Terminal } from '../output/terminal.js';
import { jobLines } from '../queue/job-lines.js';
import { asQueueCliError, redisUrlOf } from '../queue/queue-options.js';
import type { CancelOptions, JobsOptions } from './jobs-flags.js';

/** `hankweave jobs --redis <url>`: the queue's jobs, newest first (an array with --json). */
export async function jobsCommand(terminal: Terminal, options: JobsOptions): Promise<number> {
  const url = redisUrlOf(options);
  const statuses = parseStatuses(options.status);
  const limit = options.limit === undefined ? 100 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new CliError('CLI_USAGE', `--limit expects a whole number > 0, got ${options.limit}`);
  try {
    const jobs = await listJobs(url, {
      ...(options.queue ? { queueName: options.queue } : {}),
      ...(statuses ? { statuses } : {}),
      limit,
    });
    if (options.json) {
      terminal.out(JSON.stringify(jobs, null, 2));
      return 0;
    }
    if (jobs.length === 0) {
      terminal.out(`No jobs in queue ${options.queue ?? DEFAULT_QUEUE_NAME}.`);
      return 0;
    }
    for (const line of jobLines(jobs, terminal.style)) terminal.out(line);
    return 0;
  } catch (error) {
    throw asQueueCliError(error);
  }
}

const WAIT_MS = 60_000;

/**
 * `hankweave jobs cancel <id>`: removes a job that has not started; asks the worker of a running
 * one to stop it gracefully and, unless --no-wait, waits until the job has failed as cancelled.
 */
export async function cancelCommand(
  terminal: Terminal,
  jobId: string,
  options: CancelOptions,
): Promise<number> {
  const url = redisUrlOf(options);
  const queueName = options.queue ?? DEFAULT_QUEUE_NAME;
  try {
    const result = await cancelJob(url, jobId, {
      queueName,
      ...(options.reason ? { reason: options.reason } : {}),
      waitMs: options.wait === false ? 0 : WAIT_MS,
    });
    const final = result.finalState;
    if (options.json) {
      terminal.out(JSON.stringify(result));
      return 0;
    }
    const said = {
      removed: `Job ${jobId} was ${result.state}: removed from the queue.`,
      finished: `Job ${jobId} had already ${result.state === 'completed' ? 'completed' : 'failed'}: nothing to cancel.`,
      stopping:
        final === undefined
          ? `Job ${jobId} is running: its worker was asked to stop it gracefully.`
          : `Job ${jobId} was stopped gracefully (now ${final}); its execution can be resumed.`,
    }[result.outcome];
    terminal.out(said);
    return 0;
  } catch (error) {
    throw asQueueCliError(error);
  }
}

function parseStatuses(values: readonly string[] | undefined): JobStatus[] | undefined {
  if (values === undefined) return undefined;
  const parts = values.flatMap((value) => value.split(',')).map((value) => value.trim());
  const unknown = parts.filter((part) => !JOB_STATUSES.includes(part as JobStatus));
  if (unknown.length > 0 || parts.length === 0)
    throw new CliError(
      'CLI_USAGE',
      `--status: ${unknown.length > 0 ? `"${unknown.join('", "')}" is not a job status` : 'no status given'}`,
      `Use one or more of ${JOB_STATUSES.join(', ')} (comma-separated).`,
    );
  return parts as JobStatus[];
}

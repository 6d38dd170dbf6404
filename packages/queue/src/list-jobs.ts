import { Queue } from 'bullmq';
import {
  checkRedis,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type QueueConnection,
} from './connection.js';
import { asJobProgress, type JobProgress } from './job-progress.js';
import type { JobResult } from './job-result.js';
import { JOB_STATUSES } from './job-statuses.js';

export type JobStatus = (typeof JOB_STATUSES)[number];

/** One job of {@link listJobs}. */
export interface JobSummary {
  id: string;
  status: JobStatus;
  hankName: string;
  hankPath: string;
  dataPath: string;
  /** Fixed at submit, or reported by the worker that ran it. */
  executionDir: string | null;
  /** The worker that runs or ran it last. */
  worker: string | null;
  /** USD: the final total of a completed job, else what the current attempt has spent. */
  cost: number | null;
  progress: JobProgress | null;
  result: JobResult | null;
  /** Why it failed (the runtime's message, or the cancellation). */
  failedReason: string | null;
  submittedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** How many times a worker took it (more than 1 after a stall or a delay). */
  attemptsStarted: number;
}

/** Options of {@link listJobs}. */
export interface ListJobsOptions {
  queueName?: string;
  prefix?: string;
  /** Only these states (default all of {@link JOB_STATUSES}). */
  statuses?: readonly JobStatus[];
  /** The newest `limit` jobs of each state (default 100). */
  limit?: number;
}

/** The most characters of one text field a listing carries (a name, a path). */
const MAX_FIELD_LENGTH = 1024;
const MAX_REASON_LENGTH = 4096;

function clip(value: string, max = MAX_FIELD_LENGTH): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

const iso = (ms: number | undefined): string | null =>
  ms === undefined || ms === 0 ? null : new Date(ms).toISOString();

/**
 * The jobs of a queue, newest first, with their progress and result.
 * @throws {QueueError} QUEUE_REDIS_UNREACHABLE.
 */
export async function listJobs(
  target: QueueConnection | Queue,
  options: ListJobsOptions = {},
): Promise<JobSummary[]> {
  if (target instanceof Queue) return listOn(target, options);
  await checkRedis(target);
  const queue = new Queue(options.queueName ?? DEFAULT_QUEUE_NAME, {
    connection: connectionOptions(target),
    prefix: options.prefix ?? DEFAULT_PREFIX,
  });
  try {
    return await listOn(queue, options);
  } finally {
    await queue.close();
  }
}

async function listOn(queue: Queue, options: ListJobsOptions): Promise<JobSummary[]> {
  const limit = options.limit ?? 100;
  const summaries: JobSummary[] = [];
  for (const status of options.statuses ?? JOB_STATUSES) {
    for (const job of await queue.getJobs([status], 0, limit - 1, false)) {
      if (!job?.id) continue;
      const data = (job.data ?? {}) as Record<string, unknown>;
      const progress = asJobProgress(job.progress) ?? null;
      const result =
        status === 'completed' && typeof job.returnvalue === 'object'
          ? (job.returnvalue as JobResult)
          : null;
      // Jobs added by other tools may hold anything: a listing shows bounded text.
      const text = (value: unknown) => (typeof value === 'string' ? clip(value) : '');
      summaries.push({
        id: job.id,
        status,
        hankName: text(data.hankName) || clip(job.name),
        hankPath: text(data.hankPath),
        dataPath: text(data.dataPath),
        executionDir:
          text(data.executionDir) || result?.executionDir || progress?.executionDir || null,
        worker: progress?.worker ?? job.processedBy ?? null,
        cost: result?.cost ?? progress?.cost ?? null,
        progress,
        result,
        failedReason: job.failedReason ? clip(job.failedReason, MAX_REASON_LENGTH) : null,
        submittedAt: iso(job.timestamp) ?? '',
        startedAt: iso(job.processedOn),
        finishedAt: iso(job.finishedOn),
        attemptsStarted: job.attemptsStarted ?? 0,
      });
    }
  }
  return summaries.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
}

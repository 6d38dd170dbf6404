import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { loadHank } from '@hankweave/runtime';
import { Queue } from 'bullmq';
import {
  checkRedis,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type QueueConnection,
} from './connection.js';
import { QueueError } from './errors.js';
import {
  absolutePath,
  checkJobDataSize,
  checkJobOptions,
  type HankJobData,
  type HankJobOptions,
  jobHankName,
} from './job-data.js';
import { checkJobId } from './job-id.js';

/** What to run: one hank on one data source, as one job and one execution. */
export interface SubmitHankRequest {
  /** hank.json, or the directory holding it: an absolute path on the workers' shared storage. */
  hank: string;
  /** The data (file or directory): an absolute path on the shared storage. */
  data: string;
  options?: HankJobOptions;
  /** Run in this execution directory (created, or resumed when it exists). */
  executionDir?: string;
  /** Fix the execution directory now as `{executionBaseDir}/jobs/{jobId}`. */
  executionBaseDir?: string;
  /**
   * The job id (default: time-ordered and random, e.g. `0m3k2p1qz-9f2c4e1a`): one path-safe name
   * (`JOB_ID_PATTERN`), since it names the job's directory `{base}/jobs/{id}`.
   */
  jobId?: string;
  /** The queue (default `hankweave`); ignored when a `Queue` is passed. */
  queueName?: string;
  /** BullMQ's Redis key prefix (default `bull`); ignored when a `Queue` is passed. */
  prefix?: string;
}

/** A new job id: sortable by submit time, random enough for many submitters at once. */
export function newJobId(now: number = Date.now()): string {
  // Fixed width, so ids compare as strings in time order (9 base-36 digits last until 5188).
  return `${now.toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;
}

/**
 * Validates the hank as `createRuntime` would (the runtime's `loadHank`: a bad hank is refused
 * here, with the runtime's error, not on a worker), then adds one job. BullMQ retries are off
 * (`attempts: 1`): the hank's own `onFailure` policies are the only retry policy.
 *
 * @returns the job id.
 * @throws {RuntimeError} RUNTIME_INVALID_HANK, RUNTIME_HANK_NOT_FOUND from the runtime's check.
 * @throws {QueueError} QUEUE_INVALID_JOB for a relative path, missing data or script, a bad
 *   option, a job id that is not one path-safe name, job data above `MAX_JOB_DATA_BYTES`;
 *   QUEUE_REDIS_UNREACHABLE when Redis does not answer.
 */
export async function submitHank(
  target: QueueConnection | Queue,
  request: SubmitHankRequest,
): Promise<string> {
  const data = prepareJob(request);
  const jobId = request.jobId === undefined ? newJobId() : checkJobId(request.jobId);
  const executionDir =
    request.executionDir !== undefined
      ? absolutePath(request.executionDir, 'executionDir')
      : request.executionBaseDir !== undefined
        ? join(absolutePath(request.executionBaseDir, 'executionBaseDir'), 'jobs', jobId)
        : undefined;
  const job: HankJobData = { ...data, ...(executionDir !== undefined ? { executionDir } : {}) };
  checkJobDataSize(job);
  const add = (queue: Queue) =>
    queue.add(job.hankName, job, { jobId, attempts: 1, removeOnComplete: false });
  if (target instanceof Queue) {
    await add(target);
    return jobId;
  }
  await checkRedis(target);
  const queue = new Queue(request.queueName ?? DEFAULT_QUEUE_NAME, {
    connection: connectionOptions(target),
    prefix: request.prefix ?? DEFAULT_PREFIX,
  });
  try {
    await add(queue);
  } finally {
    await queue.close();
  }
  return jobId;
}

/** The job record without its execution directory: every check that needs no Redis. */
function prepareJob(request: SubmitHankRequest): Omit<HankJobData, 'executionDir'> {
  const hank = absolutePath(request.hank, 'hank');
  const hankPath =
    existsSync(hank) && statSync(hank).isDirectory() ? join(hank, 'hank.json') : hank;
  const dataPath = absolutePath(request.data, 'data');
  const options = checkJobOptions(request.options);
  const loaded = loadHank({ hankPath, ...(options.model ? { model: options.model } : {}) });
  if (!existsSync(dataPath))
    throw new QueueError('QUEUE_INVALID_JOB', `The data ${dataPath} does not exist`, {
      details: { field: 'data', path: dataPath },
    });
  if (options.scriptedModel !== undefined && !existsSync(options.scriptedModel))
    throw new QueueError(
      'QUEUE_INVALID_JOB',
      `The model script ${options.scriptedModel} does not exist`,
      { details: { field: 'options.scriptedModel', path: options.scriptedModel } },
    );
  return {
    version: 1,
    hankPath,
    dataPath,
    hankName: jobHankName(loaded.config.meta.name),
    options,
    submittedAt: new Date().toISOString(),
    submittedBy: hostname(),
  };
}

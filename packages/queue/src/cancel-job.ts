import { Queue } from 'bullmq';
import { cancelRelay, cancelTopic, clearCancelRequest, markCancelled } from './cancellation.js';
import {
  checkRedis,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type QueueConnection,
} from './connection.js';
import { QueueError } from './errors.js';

/** What a cancellation did. */
export type CancelOutcome =
  /** The job had not started (waiting or delayed): it is gone from the queue. */
  | 'removed'
  /** The job is running: its worker stops the run gracefully; the job then fails as cancelled. */
  | 'stopping'
  /** The job had already completed or failed: nothing to do. */
  | 'finished';

/** The answer of {@link cancelJob}. */
export interface CancelJobResult {
  jobId: string;
  outcome: CancelOutcome;
  /** The job's BullMQ state when it was looked at (`waiting`, `active`, `completed`, …). */
  state: string;
  /** With `waitMs`: the state the stopped job reached (`failed`), absent when it took longer. */
  finalState?: string;
}

/** Options of {@link cancelJob}. */
export interface CancelJobOptions {
  /** The queue (default `hankweave`); ignored when a `Queue` is passed. */
  queueName?: string;
  prefix?: string;
  /** Recorded with the request and in the job's failure (default `cancelled from the queue`). */
  reason?: string;
  /** For a running job, wait up to this long for it to end (default 0: return at once). */
  waitMs?: number;
}

const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Cancels a job from any process. A job that has not started is removed. A running one is asked
 * to stop: the request is recorded in Redis (so a worker that is just picking the job up, or
 * that missed the message, still sees it) and then announced on BullMQ's Relay, which reaches
 * the worker running it wherever it is; that worker shuts the runtime down gracefully (the run
 * ends interrupted, resumable like any stopped run) and fails the job with QUEUE_CANCELLED.
 *
 * @throws {QueueError} QUEUE_JOB_NOT_FOUND for an unknown id; QUEUE_REDIS_UNREACHABLE.
 */
export async function cancelJob(
  target: QueueConnection | Queue,
  jobId: string,
  options: CancelJobOptions = {},
): Promise<CancelJobResult> {
  if (target instanceof Queue) return cancelOn(target, jobId, options);
  await checkRedis(target);
  const queue = new Queue(options.queueName ?? DEFAULT_QUEUE_NAME, {
    connection: connectionOptions(target),
    prefix: options.prefix ?? DEFAULT_PREFIX,
  });
  try {
    return await cancelOn(queue, jobId, options);
  } finally {
    await queue.close();
  }
}

async function cancelOn(
  queue: Queue,
  jobId: string,
  options: CancelJobOptions,
): Promise<CancelJobResult> {
  const state = await queue.getJobState(jobId);
  if (state === 'unknown')
    throw new QueueError('QUEUE_JOB_NOT_FOUND', `No job ${jobId} in queue ${queue.name}`, {
      details: { jobId, queue: queue.name },
    });
  if (state === 'completed' || state === 'failed') return { jobId, outcome: 'finished', state };
  const request = {
    jobId,
    reason: options.reason ?? 'cancelled from the queue',
    at: new Date().toISOString(),
  };
  await markCancelled(queue, request);
  // `remove` answers 0 when the job is locked: a worker took it meanwhile, so it is stopped below.
  if (NOT_STARTED.has(state) && (await queue.remove(jobId)) === 1) {
    await clearCancelRequest(queue, jobId);
    return { jobId, outcome: 'removed', state };
  }
  const relay = cancelRelay(queue);
  try {
    await relay.publish(cancelTopic(queue), request);
  } finally {
    await relay.close();
  }
  const finalState = await waitUntilEnded(queue, jobId, options.waitMs ?? 0);
  return { jobId, outcome: 'stopping', state, ...(finalState ? { finalState } : {}) };
}

async function waitUntilEnded(
  queue: Queue,
  jobId: string,
  waitMs: number,
): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

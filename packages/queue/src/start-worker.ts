import { hostname } from 'node:os';
import { join } from 'node:path';
import { type CreateRuntimeOptions, defaultExecutionBaseDir } from '@hankweave/runtime';
import type { HankweaveEvent } from '@hankweave/types';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import {
  type CancelRequest,
  cancelRelay,
  cancelRequests,
  cancelTopic,
  clearCancelRequest,
} from './cancellation.js';
import {
  checkRedis,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  type QueueConnection,
} from './connection.js';
import { QueueError } from './errors.js';
import type { FleetBackends } from './fleet-mirror.js';
import { JobControl } from './job-control.js';
import { parseJobData } from './job-data.js';
import { checkJobId } from './job-id.js';
import type { JobResult } from './job-result.js';
import { type DryRunLauncher, type JobInfo, runJob } from './run-job.js';
import type { WorkerEvent, WorkerEventBody } from './worker-events.js';

/** Options of {@link startWorker}. */
export interface StartWorkerOptions extends FleetBackends {
  connection: QueueConnection;
  /** Default `hankweave`. */
  queueName?: string;
  /** BullMQ's Redis key prefix (default `bull`). */
  prefix?: string;
  /** Jobs run at once by this worker (default 1). */
  concurrency?: number;
  /**
   * Where job executions live when the job names none: `{baseDir}/jobs/{jobId}`. Every worker
   * of a queue must see the same directory at this path (default: the managed executions dir).
   */
  baseDir?: string;
  /** The worker's name in progress, results and listings (default `{hostname}:{pid}`). */
  name?: string;
  /**
   * How long a job's BullMQ lock lasts without renewal (default 30 000 ms; renewed every half).
   * A worker that dies leaves its job `stalled` at most this long after its last renewal.
   */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (default 15 000 ms). */
  stalledIntervalMs?: number;
  /** Stalls a job survives before BullMQ fails it (default 2: two dead workers in a row). */
  maxStalledCount?: number;
  /** How long a job waits in `delayed` when another live process holds its runtime.lock (default 30 000 ms). */
  lockedRetryDelayMs?: number;
  /** How often running jobs look for a recorded cancellation they missed (default 5 000 ms). */
  cancelPollMs?: number;
  /** The environment runs start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Starts the scripted model of dry-run jobs; without it such jobs fail. */
  dryRun?: DryRunLauncher;
  /** Extra `createRuntime` options per job (a harness, sentinels, a logger); they win. */
  runtimeOptions?: (
    job: JobInfo,
  ) => Partial<CreateRuntimeOptions> | Promise<Partial<CreateRuntimeOptions>>;
  /** Receives what the worker does (job and codon progress, delays, errors). */
  onEvent?: (event: WorkerEvent) => void;
  /**
   * Receives every event of every job's runtime, in order (metrics and traces of the fleet).
   * Called synchronously on the runtime's event bus: keep it cheap, and it must not throw.
   */
  onRuntimeEvent?: (jobId: string, event: HankweaveEvent) => void;
}

/** A running worker. */
export interface HankWorker {
  readonly name: string;
  readonly queueName: string;
  /** Ids of the jobs running now. */
  running(): string[];
  /**
   * How many jobs of this worker's queue are in each BullMQ state now (`waiting`, `active`,
   * `delayed`, `completed`, `failed`, `paused`, `prioritized`, `waiting-children`).
   */
  jobCounts(): Promise<Record<string, number>>;
  /**
   * Stops taking jobs and stops the running executions gracefully (they stay resumable; their
   * jobs go back to the queue for any worker), then closes. `force` kills agents at once.
   * A second call while closing forces.
   */
  close(options?: { force?: boolean }): Promise<void>;
}

/**
 * Starts a BullMQ worker that runs hank jobs with the embedded runtime (see README "How retries,
 * stalls and locks agree").
 * @throws {QueueError} QUEUE_REDIS_UNREACHABLE when Redis does not answer.
 */
export async function startWorker(options: StartWorkerOptions): Promise<HankWorker> {
  await checkRedis(options.connection);
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const connection = connectionOptions(options.connection);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const baseDir = options.baseDir ?? defaultExecutionBaseDir();
  const emit = (event: WorkerEventBody) =>
    options.onEvent?.({ ...event, at: new Date().toISOString() } as WorkerEvent);
  const controls = new Map<string, JobControl>();
  let closing = false;

  const queue = new Queue(queueName, { connection, prefix });
  const stopForCancel = (request: CancelRequest) =>
    controls.get(request.jobId)?.stop('cancel', request.reason);
  const relay = cancelRelay(queue);
  relay.on('error', (error: Error) => emit({ type: 'worker.error', message: error.message }));
  await relay.subscribe<CancelRequest>(cancelTopic(queue), (message) =>
    stopForCancel(message.data),
  );

  const processor = async (job: Job, token?: string): Promise<JobResult> => {
    const jobId = job.id ?? '';
    const control = new JobControl();
    // Registered before the recorded requests are read: a cancellation announced from now on
    // reaches `control`, and one announced before was recorded first.
    controls.set(jobId, control);
    try {
      // A job added by another tool may carry any id: only a single path-safe name may become
      // a directory, never `../../x` (which would run the hank outside `{base}/jobs/`).
      const data = parseJobData(job.data);
      const executionDir = data.executionDir ?? join(baseDir, 'jobs', checkJobId(jobId, 'job id'));
      const request = (await cancelRequests(queue, [jobId])).get(jobId);
      if (request) {
        await clearCancelRequest(queue, jobId);
        throw new QueueError('QUEUE_CANCELLED', `Cancelled before it started (${request.reason})`);
      }
      if (closing) {
        // Fetched while this worker was closing: hand it straight back.
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      const result = await runJob(job, token ?? '', data, executionDir, control, {
        ...options,
        worker: name,
        env: options.env ?? process.env,
        lockedRetryDelayMs: options.lockedRetryDelayMs ?? 30_000,
        emit,
      });
      emit({ type: 'job.completed', jobId, result });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (QueueError.is(error, 'QUEUE_LOCK_LOST')) {
        emit({ type: 'job.abandoned', jobId, message });
        // The job is not ours to fail: a DelayedError makes BullMQ leave it to its lock holder.
        throw new DelayedError();
      }
      if (!(error instanceof DelayedError)) {
        if (control.cause === 'cancel') await clearCancelRequest(queue, jobId).catch(() => {});
        const code = QueueError.is(error) ? error.code : 'QUEUE_RUN_FAILED';
        emit({ type: 'job.failed', jobId, code, message });
      }
      throw error;
    } finally {
      controls.delete(jobId);
    }
  };

  const worker = new Worker(queueName, processor, {
    connection,
    prefix,
    name,
    concurrency: options.concurrency ?? 1,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 15_000,
    maxStalledCount: options.maxStalledCount ?? 2,
  });
  worker.on('error', (error) => emit({ type: 'worker.error', message: error.message }));
  // The lock is how BullMQ knows the job is ours: without it another worker may take the job
  // over, so this one stops (the runtime.lock keeps the two apart until it has).
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const jobId of jobIds) controls.get(jobId)?.stop('lock-lost');
  });
  const poll = setInterval(() => {
    cancelRequests(queue, [...controls.keys()]).then(
      (requests) => {
        for (const request of requests.values()) stopForCancel(request);
      },
      (error: Error) => emit({ type: 'worker.error', message: error.message }),
    );
  }, options.cancelPollMs ?? 5_000);
  poll.unref();
  await worker.waitUntilReady();
  emit({ type: 'worker.ready', worker: name, queue: queueName, concurrency: worker.concurrency });

  let closed: Promise<void> | undefined;
  return {
    name,
    queueName,
    running: () => [...controls.keys()],
    jobCounts: () => queue.getJobCounts() as Promise<Record<string, number>>,
    close: (closeOptions = {}) => {
      const force = closeOptions.force === true || closed !== undefined;
      for (const control of controls.values()) control.stop('shutdown', '', { force });
      closing = true;
      closed ??= (async () => {
        clearInterval(poll);
        await worker.close();
        await relay.close();
        await queue.close();
        emit({ type: 'worker.closed', worker: name });
      })();
      return closed;
    },
  };
}

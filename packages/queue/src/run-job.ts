import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CreateRuntimeOptions, createRuntime, type Runtime } from '@hankweave/runtime';
import { HankweaveError, type HankweaveEvent } from '@hankweave/types';
import { DelayedError, type Job } from 'bullmq';
import { QueueError } from './errors.js';
import { type FleetBackends, FleetMirror } from './fleet-mirror.js';
import type { JobControl, StopCause } from './job-control.js';
import type { HankJobData } from './job-data.js';
import { type JobPhase, type JobProgress, JobProgressTracker } from './job-progress.js';
import { failureMessageOf, type JobResult, summarizeRun } from './job-result.js';
import type { WorkerEventBody } from './worker-events.js';

/** What a dry run adds to a job's runtime: the scripted model's endpoints and environment. */
export interface DryRunSession {
  anthropicBaseUrl: string;
  piBaseUrl: string;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * Starts the scripted model for a dry-run job (the CLI passes its own `startDryRun`, so a worker
 * runs dry runs exactly as `hankweave --scripted-model` does).
 */
export type DryRunLauncher = (
  scriptPath: string,
  dataPath: string,
  env: NodeJS.ProcessEnv,
) => Promise<DryRunSession>;

/** The job as a `runtimeOptions` hook sees it. */
export interface JobInfo {
  jobId: string;
  data: HankJobData;
  executionDir: string;
}

/** The worker settings a job's run uses. */
export interface RunJobSettings extends FleetBackends {
  worker: string;
  env: NodeJS.ProcessEnv;
  lockedRetryDelayMs: number;
  dryRun?: DryRunLauncher;
  runtimeOptions?: (
    job: JobInfo,
  ) => Partial<CreateRuntimeOptions> | Promise<Partial<CreateRuntimeOptions>>;
  emit(event: WorkerEventBody): void;
  onRuntimeEvent?: (jobId: string, event: HankweaveEvent) => void;
}

const CLOSE_REASON = {
  cancel: 'client request',
  shutdown: 'SIGTERM',
  'lock-lost': 'client request',
} as const;
const STOPPED_REASONS = new Set(['client request', 'SIGTERM', 'SIGINT', 'force']);

/**
 * Runs one job: the runtime on the job's execution directory (created, or resumed: its crash
 * recovery marks a dead run crashed and rolls back to the last success), headless, until it
 * exits. Resolves with the summary (the job completes); throws to fail the job, or throws
 * BullMQ's DelayedError after moving the job back to `delayed` (not an attempt) when another
 * live process holds the execution's runtime.lock or this worker is shutting down.
 */
export async function runJob(
  job: Job,
  token: string,
  data: HankJobData,
  executionDir: string,
  control: JobControl,
  settings: RunJobSettings,
): Promise<JobResult> {
  const jobId = job.id ?? '';
  const missing = (data.options.env ?? []).filter((name) => settings.env[name] === undefined);
  if (missing.length > 0)
    throw new QueueError(
      'QUEUE_ENV_MISSING',
      `Worker ${settings.worker} lacks ${missing.join(', ')}, which the job needs: set it in the worker's environment`,
      { details: { missing } },
    );
  const script = data.options.scriptedModel;
  if (script !== undefined && settings.dryRun === undefined)
    throw new QueueError(
      'QUEUE_DRY_RUN_UNAVAILABLE',
      `Job ${jobId} is a dry run (${script}) but worker ${settings.worker} cannot start a scripted model`,
    );
  const tracker = new JobProgressTracker({
    worker: settings.worker,
    executionDir,
    resumed: existsSync(join(executionDir, '.hankweave')),
  });
  const progress = progressWriter(job, (error) =>
    settings.emit({ type: 'worker.error', message: `progress of job ${jobId}: ${String(error)}` }),
  );
  const phase = (next: JobPhase) => progress(tracker.setPhase(next));
  progress(tracker.progress);
  settings.emit({
    type: 'job.started',
    jobId,
    hankName: data.hankName,
    executionDir,
    resumed: tracker.progress.resumed,
  });
  const mirror = FleetMirror.open(settings, executionDir, (error) =>
    settings.emit({ type: 'worker.error', message: `mirror of job ${jobId}: ${String(error)}` }),
  );
  // What a fleet view shows beside the state: where the execution lives and what it runs.
  const mirrorMeta = {
    jobId,
    worker: settings.worker,
    executionDir,
    hankName: data.hankName,
    hankPath: data.hankPath,
    dataPath: data.dataPath,
  };
  const startedAt = Date.now();
  let lastFatalError: string | undefined;
  let dry: DryRunSession | undefined;
  try {
    if (script !== undefined) dry = await settings.dryRun?.(script, data.dataPath, settings.env);
    const extra = (await settings.runtimeOptions?.({ jobId, data, executionDir })) ?? {};
    const runtime = createRuntime({
      hankPath: data.hankPath,
      dataPath: data.dataPath,
      executionDir,
      headless: true,
      autostart: true,
      ...optionsOf(data),
      env: dry?.env ?? settings.env,
      ...(dry ? { anthropicBaseUrl: dry.anthropicBaseUrl, piBaseUrl: dry.piBaseUrl } : {}),
      ...(dry ? { piRetries: false } : {}),
      sessionFields: { queue_job_id: jobId, queue_worker: settings.worker },
      logger: {
        warn: (message) => settings.emit({ type: 'job.log', jobId, level: 'warn', message }),
        error: (message) => settings.emit({ type: 'job.log', jobId, level: 'error', message }),
      },
      ...extra,
    });
    runtime.on((event) => {
      mirror?.wake(event);
      settings.onRuntimeEvent?.(jobId, event);
      if (event.type === 'error' && event.data.fatal) lastFatalError = event.data.message;
      if (!tracker.apply(event)) return;
      progress(tracker.progress);
      if (event.type === 'codon.started')
        settings.emit({ type: 'codon.started', jobId, codonId: event.data.codonId });
      if (event.type === 'codon.completed') {
        const { codonId, success, cost } = event.data;
        settings.emit({ type: 'codon.completed', jobId, codonId, success, cost });
        mirror?.state(runtime.getState(), mirrorMeta);
      }
    });
    let opened = false;
    control.onStop((force) => {
      phase('stopping');
      const cause = control.cause as StopCause;
      settings.emit({ type: 'job.stopping', jobId, cause, detail: control.detail });
      // Before the execution is open the runtime refuses a shutdown: it is asked once start() ends.
      if (opened) void closeRuntime(runtime, cause, force);
    });
    try {
      await runtime.start();
    } catch (error) {
      await runtime.finished;
      if (HankweaveError.is(error, 'STATE_LOCKED')) {
        phase('locked');
        return await delay(job, token, settings, 'locked', settings.lockedRetryDelayMs, error);
      }
      throw new QueueError('QUEUE_RUN_FAILED', messageOf(error), { cause: error });
    }
    opened = true;
    mirror?.state(runtime.getState(), mirrorMeta);
    if (control.cause !== undefined) void closeRuntime(runtime, control.cause, control.force);
    const exit = await runtime.finished;
    const state = runtime.getState();
    mirror?.state(state, { ...mirrorMeta, exitCode: exit.exitCode });
    const result = summarizeRun(state, {
      executionDir,
      exitCode: exit.exitCode,
      reason: exit.reason,
      worker: settings.worker,
      durationMs: Date.now() - startedAt,
    });
    const cause = control.cause;
    if (cause !== undefined && STOPPED_REASONS.has(exit.reason)) {
      if (cause === 'shutdown') {
        phase('requeued');
        return await delay(job, token, settings, 'shutdown', 0);
      }
      if (cause === 'cancel') {
        phase('finished');
        throw new QueueError(
          'QUEUE_CANCELLED',
          `Cancelled (${control.detail || 'from the queue'}): the run stopped gracefully; resume it by submitting ${executionDir} again`,
          { details: { executionDir } },
        );
      }
      // The job is another worker's now: its progress is left for that worker to write.
      throw new QueueError(
        'QUEUE_LOCK_LOST',
        `Worker ${settings.worker} lost the queue lock of job ${jobId} and stopped its run`,
      );
    }
    phase('finished');
    if (exit.exitCode === 0) return result;
    throw new QueueError('QUEUE_RUN_FAILED', failureMessageOf(state, exit, lastFatalError), {
      details: { executionDir, exitCode: exit.exitCode, reason: exit.reason },
    });
  } finally {
    await dry?.close();
    await mirror?.close();
    await progress.flush();
  }
}

function optionsOf(data: HankJobData): Partial<CreateRuntimeOptions> {
  const { model, maxCost, maxTime, budget, copyData } = data.options;
  return {
    ...(model !== undefined ? { model } : {}),
    ...(maxCost !== undefined ? { maxCost } : {}),
    ...(maxTime !== undefined ? { maxTime } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(copyData !== undefined ? { copyData } : {}),
  };
}

function closeRuntime(runtime: Runtime, cause: StopCause, force: boolean): Promise<unknown> {
  return runtime.close(force ? { force: true } : { reason: CLOSE_REASON[cause] });
}

/** Moves the job back to `delayed` (BullMQ counts no attempt for it) and says so. */
async function delay(
  job: Job,
  token: string,
  settings: RunJobSettings,
  reason: 'locked' | 'shutdown',
  delayMs: number,
  cause?: unknown,
): Promise<never> {
  const retryAt = Date.now() + delayMs;
  await job.moveToDelayed(retryAt, token);
  settings.emit({
    type: 'job.delayed',
    jobId: job.id ?? '',
    reason,
    retryAt: new Date(retryAt).toISOString(),
    message:
      reason === 'locked'
        ? `${messageOf(cause)} (retried in ${Math.round(delayMs / 1000)} s)`
        : `worker ${settings.worker} is shutting down: the job goes back to the queue`,
  });
  throw new DelayedError();
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Writes progress in order, one update at a time, never failing the run. */
function progressWriter(
  job: Job,
  onError: (error: unknown) => void,
): ((progress: JobProgress) => void) & { flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const write = (progress: JobProgress) => {
    chain = chain.then(
      () => job.updateProgress(progress as unknown as object).catch(onError),
      () => undefined,
    );
  };
  return Object.assign(write, { flush: () => chain });
}

import type { StopCause } from './job-control.js';
import type { JobResult } from './job-result.js';

/** What a worker reports while it runs (the CLI prints them as progress lines or NDJSON). */
export type WorkerEventBody =
  | { type: 'worker.ready'; worker: string; queue: string; concurrency: number }
  | {
      type: 'job.started';
      jobId: string;
      hankName: string;
      executionDir: string;
      /** The execution existed: crash recovery or a resume follows. */
      resumed: boolean;
    }
  | { type: 'codon.started'; jobId: string; codonId: string }
  | { type: 'codon.completed'; jobId: string; codonId: string; success: boolean; cost: number }
  | { type: 'job.completed'; jobId: string; result: JobResult }
  | { type: 'job.failed'; jobId: string; code: string; message: string }
  /** This worker lost the job's queue lock and stopped its run: the job is not failed by it. */
  | { type: 'job.abandoned'; jobId: string; message: string }
  | {
      type: 'job.delayed';
      jobId: string;
      /** `locked`: another live process holds runtime.lock; `shutdown`: this worker is stopping. */
      reason: 'locked' | 'shutdown';
      retryAt: string;
      message: string;
    }
  | { type: 'job.stopping'; jobId: string; cause: StopCause; detail: string }
  | { type: 'job.log'; jobId: string; level: 'warn' | 'error'; message: string }
  | { type: 'worker.error'; message: string }
  | { type: 'worker.closed'; worker: string };

/** A {@link WorkerEventBody} with the time it happened. */
export type WorkerEvent = WorkerEventBody & { at: string };

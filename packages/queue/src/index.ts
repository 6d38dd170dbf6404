// Public surface of @hankweave/queue: named exports only.

export {
  type CancelJobOptions,
  type CancelJobResult,
  type CancelOutcome,
  cancelJob,
} from './cancel-job.js';
export type { CancelRequest } from './cancellation.js';
export {
  checkRedis,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  describeConnection,
  type QueueConnection,
} from './connection.js';
export { QUEUE_ERROR_CODES, QueueError, type QueueErrorCode } from './errors.js';
export type { FleetBackends, StateMirror } from './fleet-mirror.js';
export type { StopCause } from './job-control.js';
export type { HankJobData, HankJobOptions } from './job-data.js';
export { MAX_HANK_NAME_LENGTH, MAX_JOB_DATA_BYTES } from './job-data.js';
export { checkJobId, JOB_ID_PATTERN } from './job-id.js';
export {
  asJobProgress,
  type CodonEventSummary,
  type CodonProgress,
  type JobPhase,
  type JobProgress,
} from './job-progress.js';
export type { JobResult, JobResultCodon } from './job-result.js';
export { JOB_STATUSES } from './job-statuses.js';
export {
  type JobStatus,
  type JobSummary,
  type ListJobsOptions,
  listJobs,
} from './list-jobs.js';
export type { DryRunLauncher, DryRunSession, JobInfo } from './run-job.js';
export { type HankWorker, type StartWorkerOptions, startWorker } from './start-worker.js';
export { newJobId, type SubmitHankRequest, submitHank } from './submit-hank.js';
export type { WorkerEvent, WorkerEventBody } from './worker-events.js';

import { QueueError } from './errors.js';

/**
 * What a job id may be: one path-safe name (it becomes the directory `{base}/jobs/{id}`), 1 to
 * 128 characters of letters, digits, `.`, `_` and `-`, starting with a letter or digit (so never
 * `.` or `..`), no `/`.
 */
export const JOB_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * `id` when it is a valid job id.
 * @throws {QueueError} QUEUE_INVALID_JOB naming the field, for anything else (`../../x`, a path,
 *   an empty or huge id): a worker would otherwise run the job outside `{base}/jobs/`.
 */
export function checkJobId(id: unknown, field = 'jobId'): string {
  if (typeof id === 'string' && JOB_ID_PATTERN.test(id)) return id;
  const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 40)) : String(typeof id);
  throw new QueueError(
    'QUEUE_INVALID_JOB',
    `${field} ${shown}${typeof id === 'string' && id.length > 40 ? '…' : ''} is not a job id: use 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit (it names the job's directory under {base}/jobs/)`,
    { details: { field } },
  );
}

import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link QueueError} can carry; the README's Errors table lists them all. */
export const QUEUE_ERROR_CODES = [
  'QUEUE_INVALID_JOB',
  'QUEUE_REDIS_UNREACHABLE',
  'QUEUE_JOB_NOT_FOUND',
  'QUEUE_ENV_MISSING',
  'QUEUE_DRY_RUN_UNAVAILABLE',
  'QUEUE_RUN_FAILED',
  'QUEUE_CANCELLED',
  'QUEUE_LOCK_LOST',
] as const;

/** One of {@link QUEUE_ERROR_CODES}. */
export type QueueErrorCode = (typeof QUEUE_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/queue`. A hank that fails validation at submit keeps the
 * runtime's own `RuntimeError` (RUNTIME_INVALID_HANK, RUNTIME_HANK_NOT_FOUND), so the CLI reports
 * it exactly as `hankweave validate` does; this class covers the queue's own failures.
 */
export class QueueError extends defineErrorClass('QueueError', QUEUE_ERROR_CODES) {}

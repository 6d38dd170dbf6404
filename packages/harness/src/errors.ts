import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link HarnessError} can carry. */
export const HARNESS_ERROR_CODES = [
  'HARNESS_BINARY_NOT_FOUND',
  'HARNESS_ROOT_NOT_ALLOWED',
  'HARNESS_SPAWN_FAILED',
  'HARNESS_LOG_WRITE_FAILED',
  'HARNESS_LOG_NOT_FOUND',
  'HARNESS_INVALID_OPTIONS',
] as const;
/** One of {@link HARNESS_ERROR_CODES}. */
export type HarnessErrorCode = (typeof HARNESS_ERROR_CODES)[number];

/**
 * The one error class of every agent harness (this package and the adapters, such as
 * `@hankweave/claude-code`). Thrown by `start()` before anything runs (binary, root, spawn, log,
 * options); failures of a running agent never throw, they end up in the outcome.
 */
export class HarnessError extends defineErrorClass('HarnessError', HARNESS_ERROR_CODES) {}

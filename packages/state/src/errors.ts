import { defineErrorClass, type ErrorDetails } from '@hankweave/types';

/**
 * Every code a {@link StateError} can carry. A runtime list (for tables, snapshots and
 * `switch` exhaustiveness) and a type at once.
 */
export const STATE_ERROR_CODES = [
  'STATE_INVALID',
  'STATE_INVALID_TRANSITION',
  'STATE_MISSING_METADATA',
  'STATE_UNKNOWN_RUN',
  'STATE_UNKNOWN_CODON',
  'STATE_DUPLICATE_RUN',
  'STATE_CORRUPT',
  'STATE_WRITE_FAILED',
  'STATE_CLOSED',
  'STATE_LOCKED',
  'STATE_LOCK_LOST',
  'STATE_LOCK_FAILED',
] as const;

/** One of {@link STATE_ERROR_CODES}. */
export type StateErrorCode = (typeof STATE_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/state`. Branch on `code`, never on the message:
 *
 * ```ts
 * try { store.apply(t); } catch (error) {
 *   if (StateError.is(error, 'STATE_INVALID_TRANSITION')) { ... }
 * }
 * ```
 */
export class StateError extends defineErrorClass('StateError', STATE_ERROR_CODES) {}

// Shorthand used inside the package (not exported from its entry points):
// `throw stateError('STATE_LOCKED', '...', {pid})`.
export const stateError = (
  code: StateErrorCode,
  message: string,
  details?: ErrorDetails,
  cause?: unknown,
): StateError => new StateError(code, message, { details, cause });

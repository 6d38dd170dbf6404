import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link SessionsError} can carry. */
export const SESSIONS_ERROR_CODES = [
  'SESSIONS_CORRUPT_FILE',
  'SESSIONS_INVALID_NAME',
  'SESSIONS_LOCK_TIMEOUT',
  'SESSIONS_INVALID_DURATION',
  'SESSIONS_IO',
] as const;

/** One of {@link SESSIONS_ERROR_CODES}. */
export type SessionsErrorCode = (typeof SESSIONS_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/sessions`. Match on `code`, never on the message:
 * `if (SessionsError.is(e, 'SESSIONS_LOCK_TIMEOUT')) ...`. `details.file` names the file involved.
 */
export class SessionsError extends defineErrorClass('SessionsError', SESSIONS_ERROR_CODES) {}

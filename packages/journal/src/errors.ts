import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link JournalError} can carry; the README's Errors table lists them all. */
export const JOURNAL_ERROR_CODES = [
  'JOURNAL_INVALID',
  'JOURNAL_NOT_JOURNALED',
  'JOURNAL_BAD_ARGUMENT',
  'JOURNAL_BAD_CURSOR',
  'JOURNAL_CLOSED',
  'JOURNAL_READ_ONLY',
  'JOURNAL_OPEN_FAILED',
  'JOURNAL_WRITE_FAILED',
  'JOURNAL_READ_FAILED',
] as const;

/** One of {@link JOURNAL_ERROR_CODES}. */
export type JournalErrorCode = (typeof JOURNAL_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/journal`. Assert on `code`, never on the message:
 * `await expect(p).rejects.toMatchObject({ code: 'JOURNAL_INVALID' })`; in code,
 * `JournalError.is(error, 'JOURNAL_CLOSED')` (true for errors from any copy of this package).
 */
export class JournalError extends defineErrorClass('JournalError', JOURNAL_ERROR_CODES) {}

import { HankweaveError } from '@hankweave/types';

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
 * `await expect(p).rejects.toMatchObject({ code: 'JOURNAL_INVALID' })`.
 */
export class JournalError extends HankweaveError<JournalErrorCode> {
  override name = 'JournalError';
}

/** True when `value` is a {@link JournalError} (from any copy of this package) with `code`. */
export function isJournalError(value: unknown, code?: JournalErrorCode): value is JournalError {
  return (
    HankweaveError.is(value) &&
    value.name === 'JournalError' &&
    (code === undefined || value.code === code)
  );
}

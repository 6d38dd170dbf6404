import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link FilesError} (or a {@link FilesWarning}) can carry. */
export const FILES_ERROR_CODES = [
  'FILES_INVALID_PATTERN',
  'FILES_INVALID_PATH',
  'FILES_PATH_ESCAPES_ROOT',
  'FILES_ROOT_NOT_FOUND',
  'FILES_NOT_FOUND',
  'FILES_UNREADABLE',
  'FILES_INVALID_CODON_INDEX',
  'FILES_INVALID_OPTION',
  'FILES_WATCH_UNAVAILABLE',
] as const;

/** One of {@link FILES_ERROR_CODES}. */
export type FilesErrorCode = (typeof FILES_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/files`. Match on `code`, never on the message:
 * `if (FilesError.is(e) && e.code === 'FILES_PATH_ESCAPES_ROOT') ...`.
 */
export class FilesError extends defineErrorClass('FilesError', FILES_ERROR_CODES) {}

/**
 * A non-fatal problem met during a walk or scan (an unreadable directory, a file that vanished
 * between listing and stat). Walks carry on and report these instead of throwing.
 */
export interface FilesWarning {
  /** `FILES_UNREADABLE` or `FILES_NOT_FOUND`. */
  readonly code: FilesErrorCode;
  /** POSIX path relative to the root ('' for the root itself). */
  readonly path: string;
  /** Human-readable explanation; do not match on it. */
  readonly message: string;
  /** The system error code (`EACCES`, `ENOENT`, `ELOOP`...), when there was one. */
  readonly errno?: string;
}

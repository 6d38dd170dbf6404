import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link PostgresError} can carry; the README's Errors table lists them all. */
export const POSTGRES_ERROR_CODES = [
  'POSTGRES_BAD_ARGUMENT',
  'POSTGRES_NOT_INSTALLED',
  'POSTGRES_START_FAILED',
  'POSTGRES_SCHEMA_TOO_NEW',
  'POSTGRES_QUERY_FAILED',
] as const;

/** One of {@link POSTGRES_ERROR_CODES}. */
export type PostgresErrorCode = (typeof POSTGRES_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/postgres`. The journal backend fails with the journal's own
 * `JournalError` codes and the file system with Node's errno codes, because that is what their
 * callers branch on; this class covers the rest (the mirror, the schema, test servers).
 */
export class PostgresError extends defineErrorClass('PostgresError', POSTGRES_ERROR_CODES) {}

import { JournalError, type JournalErrorCode } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import type { Pool } from 'pg';
import { PostgresError } from '../errors.js';
import { APPEND_EVENTS } from './journal-sql.js';

/** A row of the reads that join the counter row to a range of events. */
export interface EventRow {
  total: string | null;
  /** The row's seq as text (`pg` returns bigint as text; a safe integer here). */
  position: string | null;
  line: string | null;
}

// Postgres' jsonb cannot hold U+0000 or unpaired surrogates, which JSON.stringify writes as
// `\u0000` and `\udXXX` escapes; such events keep a null `event` column and an exact `line`.
const NOT_JSONB = /\\u(?:0000|d[89a-f])/i;

/** The stored events of rows (a row without a line is the counter of an empty range). */
export const linesOf = (rows: readonly EventRow[]): string[] =>
  rows.flatMap((row) => (row.line === null ? [] : [row.line]));

export const parseLine = (line: string): HankweaveEvent => JSON.parse(line) as HankweaveEvent;

/**
 * Appends `lines` after the execution's last event in one statement (counter and rows together).
 * @throws Error when the execution's counter row is gone (the journal was deleted).
 */
export async function insertLines(
  target: Pick<Pool, 'query'>,
  executionId: string,
  lines: string[],
): Promise<void> {
  let bytes = 0;
  for (const line of lines) bytes += Buffer.byteLength(line) + 1;
  const result = await target.query({
    name: 'hw_journal_append',
    text: APPEND_EVENTS,
    values: [executionId, lines.length, bytes, lines, lines.map((line) => !NOT_JSONB.test(line))],
  });
  if (result.rowCount !== lines.length) {
    throw new Error(`the counter row of ${executionId} is gone (journal deleted?)`);
  }
}

export const closedError = (): JournalError =>
  new JournalError('JOURNAL_CLOSED', 'Journal is closed');

/** `error` as a JournalError with `code`, naming the execution and the database's code. */
export function journalFailure(
  code: JournalErrorCode,
  doing: string,
  executionId: string,
  error: unknown,
): JournalError {
  const raw = (error as { code?: unknown } | null)?.code;
  const codes = PostgresError.is(error)
    ? { code: error.code }
    : typeof raw === 'string'
      ? { sqlState: raw }
      : {};
  const message = error instanceof Error ? error.message : String(error);
  return new JournalError(
    code,
    `Cannot ${doing} the journal of execution ${executionId}: ${message}`,
    {
      cause: error,
      details: { executionId, ...codes },
    },
  );
}

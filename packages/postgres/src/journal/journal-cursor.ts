import { createHmac, timingSafeEqual } from 'node:crypto';
import { JournalError } from '@hankweave/journal';

// `jp1.` + base64url(`{seq in base 36}:{mac}`), where mac is an HMAC-SHA256 of the execution id
// and the sequence number, keyed by the execution's random `cursor_key` (stored in its counter
// row). So a cursor is opaque and cannot be forged or edited without database access, and a
// cursor of another execution, or of a journal deleted and created again, fails the check. The
// prefix differs from the file journal's `jc1.`: the two are never interchangeable.
const PREFIX = 'jp1.';
const MAC_LENGTH = 22; // base64url characters: 132 bits of the HMAC

const macOf = (key: string, executionId: string, seq: number): string =>
  createHmac('sha256', key)
    .update(`${executionId}\n${seq}`)
    .digest('base64url')
    .slice(0, MAC_LENGTH);

/** The cursor that resumes after event `seq` (0: from the start) of one execution's journal. */
export function encodeJournalCursor(key: string, executionId: string, seq: number): string {
  const body = `${seq.toString(36)}:${macOf(key, executionId, seq)}`;
  return PREFIX + Buffer.from(body).toString('base64url');
}

/**
 * The sequence number a cursor resumes after, once its signature is checked. Checking that it is
 * not past the end is the caller's part (it needs the count).
 * @throws {JournalError} JOURNAL_BAD_CURSOR when the cursor is malformed, altered, or signed for
 *   another execution or another incarnation of this one.
 */
export function decodeJournalCursor(key: string, executionId: string, cursor: string): number {
  const bad = (reason: string): JournalError =>
    new JournalError('JOURNAL_BAD_CURSOR', `Journal cursor rejected: ${reason}`, {
      details: { cursor, reason },
    });
  if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX)) throw bad('unknown format');
  const body = cursor.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw bad('unknown format');
  const match = /^([0-9a-z]{1,11}):([A-Za-z0-9_-]+)$/.exec(
    Buffer.from(body, 'base64url').toString('utf8'),
  );
  if (match === null) throw bad('unknown format');
  const seq = Number.parseInt(match[1] as string, 36);
  if (!Number.isSafeInteger(seq)) throw bad('unknown format');
  const given = Buffer.from(match[2] as string);
  const expected = Buffer.from(macOf(key, executionId, seq));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw bad('the signature does not match this journal');
  }
  return seq;
}

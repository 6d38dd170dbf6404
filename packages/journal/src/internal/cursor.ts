import { createHash } from 'node:crypto';
import { JournalError } from '../errors.js';

/**
 * A decoded cursor: the next line to read, its byte offset, and the epoch of the journal it
 * belongs to (file: a hash of the first line; memory: an instance id). Backends that have no byte
 * offsets store the line number in both fields.
 */
export interface CursorPosition {
  line: number;
  offset: number;
  epoch: string;
}

const PREFIX = 'jc1.';
const EPOCH_PATTERN = /^[0-9a-z]*$/;

const checksum = (payload: string): string =>
  createHash('sha1').update(payload).digest('hex').slice(0, 8);

/**
 * Encodes a position as an opaque string: `jc1.` + base64url(`line:offset:epoch:check`). The
 * checksum catches truncated or hand-edited cursors before a backend trusts the numbers.
 */
export function encodeCursor(position: CursorPosition): string {
  const payload = `${position.line.toString(36)}:${position.offset.toString(36)}:${position.epoch}`;
  return PREFIX + Buffer.from(`${payload}:${checksum(payload)}`).toString('base64url');
}

/**
 * Decodes and checks the form of a cursor; the backend then checks it against its contents.
 * @throws {JournalError} JOURNAL_BAD_CURSOR when the string is not a cursor this package made.
 */
export function decodeCursor(cursor: string): CursorPosition {
  const bad = (reason: string): JournalError =>
    new JournalError('JOURNAL_BAD_CURSOR', `Invalid journal cursor: ${reason}`, {
      details: { cursor, reason },
    });
  if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX)) throw bad('unknown format');
  const body = cursor.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw bad('unknown format');
  const parts = Buffer.from(body, 'base64url').toString('utf8').split(':');
  if (parts.length !== 4) throw bad('unknown format');
  const [line36, offset36, epoch, check] = parts as [string, string, string, string];
  if (checksum(`${line36}:${offset36}:${epoch}`) !== check) throw bad('checksum mismatch');
  const line = Number.parseInt(line36, 36);
  const offset = Number.parseInt(offset36, 36);
  if (
    !/^[0-9a-z]+$/.test(line36) ||
    !/^[0-9a-z]+$/.test(offset36) ||
    !Number.isSafeInteger(line) ||
    !Number.isSafeInteger(offset) ||
    !EPOCH_PATTERN.test(epoch)
  ) {
    throw bad('unknown format');
  }
  return { line, offset, epoch };
}

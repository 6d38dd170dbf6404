import { type Fs, isMissing, nodeFs, writeFileAtomic } from '@hankweave/durable-io';
import { SessionsError } from '../errors.js';

/** The result of reading a JSON file that may be missing or unparseable. */
export type JsonRead =
  | { kind: 'missing' }
  | { kind: 'parsed'; value: unknown; text: string }
  | { kind: 'unparseable'; error: unknown; text: string };

/**
 * Reads and parses `file`. A missing file (or directory) is `missing`; an empty or
 * whitespace-only file is `missing` too (what `touch` leaves). Any other read failure throws
 * SESSIONS_IO naming the file.
 */
export async function readJson(file: string, fs: Fs = nodeFs): Promise<JsonRead> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw ioError('read', file, error);
  }
  if (text.trim() === '') return { kind: 'missing' };
  try {
    return { kind: 'parsed', value: JSON.parse(text), text };
  } catch (error) {
    return { kind: 'unparseable', error, text };
  }
}

/** SESSIONS_CORRUPT_FILE for `file`, saying what is wrong and what to do. */
export function corruptFileError(file: string, problem: string, cause?: unknown): SessionsError {
  return new SessionsError(
    'SESSIONS_CORRUPT_FILE',
    `${file}: ${problem}. Fix it by hand, or move it aside so that the next write starts a new one`,
    { details: { file }, cause },
  );
}

/** SESSIONS_IO for a failed `operation` on `file`, keeping the system error as the cause. */
export function ioError(operation: string, file: string, cause: unknown): SessionsError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new SessionsError(
    'SESSIONS_IO',
    `cannot ${operation} ${file}: ${reason}. Check that the directory exists and is writable`,
    { details: { file, operation }, cause },
  );
}

/** The text every writer of this package produces: 2-space JSON and a trailing newline, as jq. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Durable, atomic write of `value` as JSON (creates missing directories); SESSIONS_IO on failure. */
export async function writeJson(file: string, value: unknown, fs: Fs = nodeFs): Promise<void> {
  try {
    await writeFileAtomic(file, jsonText(value), { fs, createParents: true });
  } catch (error) {
    throw ioError('write', file, error);
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

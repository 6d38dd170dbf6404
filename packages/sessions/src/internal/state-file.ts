import type { Fs } from '@hankweave/durable-io';
import { corruptFileError, readJson } from './json-file.js';

/** A zod schema as far as the readers use it (sessions does not depend on zod itself). */
interface Parser<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * Reads a state file with its tolerant schema: undefined when missing; SESSIONS_CORRUPT_FILE
 * naming the file and the first problems when it is not JSON or does not fit the schema.
 */
export async function readStateFile<T>(
  file: string,
  schema: Parser<T>,
  what: string,
  fs: Fs | undefined,
): Promise<T | undefined> {
  const read = await readJson(file, fs);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'unparseable') throw corruptFileError(file, 'is not valid JSON', read.error);
  const parsed = schema.safeParse(read.value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`);
  throw corruptFileError(file, `is not a ${what} (${issues.join('; ')})`, parsed.error);
}

import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Fs, isMissing, nodeFs, writeFileAtomic } from '@hankweave/durable-io';

/** Where inline and stdin inputs are kept: `~/.hankweave-cache/inputs` (reference §2.2 `--input`). */
export function defaultInputCacheDir(): string {
  return join(homedir(), '.hankweave-cache', 'inputs');
}

/** The file an input text is stored in: `input-<first 16 hex of its sha256>.txt`. */
export function inputFileName(text: string): string {
  return `input-${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}.txt`;
}

/**
 * Stores an inline (`--input`) or stdin (`-`) text as a data source, content-addressed
 * (reference §2.3 step 8), and returns the file's path.
 *
 * The file is written once: when it already holds the text it is left untouched, so its mtime,
 * and so the data hash that finds the execution to resume, stay the same; the same text resumes
 * the same execution. A file holding something else (a torn write of an older version) is
 * replaced atomically.
 */
export async function storeInputText(
  text: string,
  options: { cacheDir?: string; fs?: Fs } = {},
): Promise<string> {
  const fs = options.fs ?? nodeFs;
  const path = join(options.cacheDir ?? defaultInputCacheDir(), inputFileName(text));
  try {
    if ((await fs.readFile(path, 'utf8')) === text) return path;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await writeFileAtomic(path, text, { fs, createParents: true });
  return path;
}

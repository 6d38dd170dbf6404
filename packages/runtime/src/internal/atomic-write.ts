import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';

/** Writes a file whole or not at all: a temp file beside it, then a rename. */
export async function writeFileAtomic(path: string, content: string, mode?: number): Promise<void> {
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(temp, content, mode === undefined ? undefined : { mode });
  await rename(temp, path);
}

/** JSON with 2-space indentation and a final newline, as every hankweave file is written. */
export const toJsonFile = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

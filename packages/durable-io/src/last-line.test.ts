import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastLineStart } from './last-line.js';
import { cleanupTempDirs, makeTempDir } from './testing.js';

afterEach(cleanupTempDirs);

async function startOf(text: string | Buffer): Promise<number> {
  const { path: dir } = await makeTempDir('last-line-');
  const file = join(dir, 'log');
  await writeFile(file, text);
  const handle = await open(file, 'r');
  try {
    return await lastLineStart(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

describe('lastLineStart()', () => {
  it('finds where the last line starts, torn or whole', async () => {
    expect(await startOf('{"n":1}\n{"n":2}\n{"n":')).toBe(16);
    expect(await startOf('one\ntwo\n')).toBe(8);
    expect(await startOf('no newline at all')).toBe(0);
    expect(await startOf('')).toBe(0);
  });

  it('looks back across windows when the last line is longer than one', async () => {
    const head = 'first line\n';
    const long = 'x'.repeat(200_000);
    expect(await startOf(head + long)).toBe(head.length);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFaultyFs } from './faulty-fs.js';

describe('createFaultyFs()', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faulty-fs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const writeThrough = async (
    fs: ReturnType<typeof createFaultyFs>,
    name: string,
    text: string,
  ) => {
    const handle = await fs.open(join(dir, name), 'w');
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  };

  it('lets `after` calls through, then fails one call with the given code (throw mode)', async () => {
    const fs = createFaultyFs({ failAt: 'open', after: 1, code: 'ENOSPC' });
    await writeThrough(fs, 'a', 'x');
    await expect(writeThrough(fs, 'b', 'x')).rejects.toMatchObject({ code: 'ENOSPC' });
    await writeThrough(fs, 'c', 'x');
    expect(fs.faulted).toBe(true);
    expect(fs.crashed).toBe(false);
  });

  it('refuses every later call after a crash, and leaves a torn write behind', async () => {
    const text = 'x'.repeat(100);
    const fs = createFaultyFs({ failAt: 'writeFile', mode: 'crash' });
    await expect(writeThrough(fs, 'torn', text)).rejects.toMatchObject({ code: 'ECRASHED' });
    expect(await readFile(join(dir, 'torn'), 'utf8')).toBe('x'.repeat(50));
    await expect(fs.stat(dir)).rejects.toMatchObject({ code: 'ECRASHED' });
    expect(fs.trace.at(-1)).toEqual({ op: 'stat', path: dir, failed: true });
  });

  it('only counts calls on matching paths, and records everything when unarmed', async () => {
    const fs = createFaultyFs();
    await writeThrough(fs, 'a', 'x');
    fs.arm({ failAt: 'any', pathIncludes: 'target' });
    await writeThrough(fs, 'other', 'x');
    await expect(fs.readFile(join(dir, 'target'), 'utf8')).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.trace.map((call) => call.op)).toEqual([
      'open',
      'writeFile',
      'close',
      'open',
      'writeFile',
      'close',
      'readFile',
    ]);
  });
});

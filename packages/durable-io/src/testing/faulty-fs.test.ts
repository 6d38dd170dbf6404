import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFaultyFs, type FaultyFs } from './faulty-fs.js';
import { cleanupTempDirs, makeTempDir } from './temp-dir.js';

describe('createFaultyFs()', () => {
  let dir: string;
  beforeEach(async () => {
    dir = (await makeTempDir('faulty-fs-')).path;
  });
  afterEach(cleanupTempDirs);

  const writeThrough = async (fs: FaultyFs, name: string, text: string) => {
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
    expect(() => fs.readdirSync(dir)).toThrow(expect.objectContaining({ code: 'ECRASHED' }));
    expect(fs.trace.at(-2)).toEqual({ op: 'stat', path: dir, failed: true });
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

  it('fails `times` calls from the nth on, or every one with Infinity', async () => {
    const twice = createFaultyFs({ failAt: 'stat', after: 2, times: 2 });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 6; i++)
      outcomes.push(
        await twice.stat(dir).then(
          () => true,
          () => false,
        ),
      );
    expect(outcomes).toEqual([true, true, false, false, true, true]);

    const sticky = createFaultyFs({ failAt: 'lstat', after: 1, times: Number.POSITIVE_INFINITY });
    await expect(sticky.lstat(dir)).resolves.toBeDefined();
    for (let i = 0; i < 5; i++)
      await expect(sticky.lstat(dir)).rejects.toMatchObject({ code: 'EIO' });
  });

  it('tears a handle write after `partialBytes` and counts writes and fsyncs', async () => {
    const fs = createFaultyFs({ failAt: 'write', partialBytes: 4, code: 'ENOSPC' });
    const handle = await fs.open(join(dir, 'journal'), 'a');
    await expect(handle.write(Buffer.from('line one\n'))).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    await handle.write(Buffer.from('line two\n'));
    await handle.sync();
    await handle.close();
    expect(await readFile(join(dir, 'journal'), 'utf8')).toBe('lineline two\n');
    expect(fs.calls('write')).toBe(2);
    expect(fs.calls('fsync')).toBe(1);
  });

  it('arms several faults at once, each with its own count', async () => {
    const fs = createFaultyFs({
      faults: [
        { failAt: 'write', code: 'EIO' },
        { failAt: 'fsync', after: 1, code: 'EIO' },
      ],
    });
    const handle = await fs.open(join(dir, 'f'), 'w');
    await expect(handle.write('a')).rejects.toMatchObject({ code: 'EIO' });
    await handle.write('b');
    await handle.sync();
    await expect(handle.sync()).rejects.toMatchObject({ code: 'EIO' });
    await handle.close();
  });

  it('tears a path-based writeFile in crash mode and fails sync methods too', async () => {
    await writeFile(join(dir, 'f'), 'old');
    const fs = createFaultyFs({ failAt: 'writeFile', mode: 'crash' });
    await expect(fs.writeFile(join(dir, 'f'), 'abcdefgh')).rejects.toMatchObject({
      code: 'ECRASHED',
    });
    expect(await readFile(join(dir, 'f'), 'utf8')).toBe('abcd');
    const sync = createFaultyFs({ failAt: 'readdirSync', code: 'EACCES', pathIncludes: 'secret' });
    expect(sync.readdirSync(dir)).toEqual(['f']);
    expect(() => sync.readdirSync(join(dir, 'secret'))).toThrow(
      expect.objectContaining({ code: 'EACCES' }),
    );
  });

  it('closes the real descriptors of open handles when it crashes', async () => {
    const fs = createFaultyFs();
    const handle = await fs.open(join(dir, 'held'), 'w');
    fs.arm({ failAt: 'stat', mode: 'crash' });
    await expect(fs.stat(dir)).rejects.toMatchObject({ code: 'ECRASHED' });
    // The real descriptor was closed, as the kernel closes a dead process's files.
    expect(handle.fd).toBe(-1);
    await expect(handle.write('x')).rejects.toMatchObject({ code: 'ECRASHED' });
    expect(fs.crashed).toBe(true);
  });
});

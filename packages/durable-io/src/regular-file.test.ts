import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFileSync, readRegularTextFile } from './regular-file.js';
import { cleanupTempDirs, makeTempDir } from './testing/temp-dir.js';

// Real files, a real FIFO (mkfifo) and real links: the point is that nothing here ever blocks.
afterEach(cleanupTempDirs);

describe('readRegularFile()', () => {
  it('reads a regular file, and one reached through a symlink', async () => {
    const dir = await makeTempDir('regular-file-');
    writeFileSync(join(dir.path, 'a.txt'), 'hello');
    symlinkSync(join(dir.path, 'a.txt'), join(dir.path, 'link.txt'));
    expect(await readRegularTextFile(join(dir.path, 'a.txt'))).toBe('hello');
    expect(await readRegularTextFile(join(dir.path, 'link.txt'))).toBe('hello');
    expect(readRegularFileSync(join(dir.path, 'link.txt')).toString('utf8')).toBe('hello');
  });

  it('refuses a FIFO at once with EFTYPE instead of blocking', async () => {
    const dir = await makeTempDir('regular-file-');
    const fifo = join(dir.path, 'prompt.md');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    await expect(readRegularFile(fifo)).rejects.toMatchObject({
      code: 'EFTYPE',
      kind: 'a FIFO (named pipe)',
    });
    expect(() => readRegularFileSync(fifo)).toThrow(expect.objectContaining({ code: 'EFTYPE' }));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a directory and a character device', async () => {
    const dir = await makeTempDir('regular-file-');
    mkdirSync(join(dir.path, 'sub'));
    await expect(readRegularFile(join(dir.path, 'sub'))).rejects.toMatchObject({ code: 'EFTYPE' });
    await expect(readRegularFile('/dev/zero')).rejects.toMatchObject({ code: 'EFTYPE' });
  });

  it('refuses a file above maxBytes with EFBIG, without reading it', async () => {
    const dir = await makeTempDir('regular-file-');
    writeFileSync(join(dir.path, 'big'), 'x'.repeat(100));
    await expect(readRegularFile(join(dir.path, 'big'), { maxBytes: 99 })).rejects.toMatchObject({
      code: 'EFBIG',
    });
    expect(readRegularFileSync(join(dir.path, 'big'), { maxBytes: 100 })).toHaveLength(100);
  });

  it('passes the open error through for a missing file', async () => {
    await expect(readRegularFile('/nonexistent/x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

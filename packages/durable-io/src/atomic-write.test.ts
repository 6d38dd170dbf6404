import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDirectory,
  isAtomicTempName,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic-write.js';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from './testing.js';

afterEach(cleanupTempDirs);

describe('writeFileAtomic()', () => {
  it('replaces the file, fsyncs it before the rename and the directory after', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'meta.json');
    await writeFile(target, 'old');
    const fs = createFaultyFs();
    await writeFileAtomic(target, 'new', { fs });
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(fs.trace.map((call) => call.op)).toEqual([
      'open',
      'writeFile',
      'fsync',
      'close',
      'rename',
      'open',
      'fsync',
      'close',
    ]);
    expect(fs.trace[5]?.path).toBe(dir);
    expect(await readdir(dir)).toEqual(['meta.json']);
  });

  it('skips both fsyncs when told the file is a cache', async () => {
    const { path: dir } = await makeTempDir();
    const fs = createFaultyFs();
    await writeFileAtomic(join(dir, 'index'), 'x', { fs, fsync: false });
    expect(fs.calls('fsync')).toBe(0);
  });

  it('creates the file with the mode given and the parents when asked', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'a', 'b', 'secret');
    await writeFileAtomic(target, 'token', { mode: 0o600, createParents: true });
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('fsyncs the parent of every directory it creates', async () => {
    const { path: dir } = await makeTempDir();
    const fs = createFaultyFs();
    await writeFileAtomic(join(dir, 'a', 'b', 'file'), 'x', { fs, createParents: true });
    const synced = fs.trace
      .filter((call, index) => call.op === 'fsync' && fs.trace[index - 1]?.op === 'open')
      .map((call) => call.path);
    // The parent of each new directory, then (after the rename) the file's directory.
    expect(synced).toEqual([join(dir, 'a'), dir, join(dir, 'a', 'b')]);
    const again = createFaultyFs();
    await createDirectory(join(dir, 'a', 'b'), { fs: again });
    expect(again.calls('fsync')).toBe(0); // nothing was created, nothing to sync
  });

  it('fails with EEXIST and leaves the holder alone when exclusive and the lock is held', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'HEAD');
    await writeFile(`${target}.lock`, 'held by someone else');
    await expect(writeFileAtomic(target, 'x', { exclusive: true })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await readFile(`${target}.lock`, 'utf8')).toBe('held by someone else');
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names its temporary files so that leftovers can be recognised', async () => {
    const { path: dir } = await makeTempDir();
    const fs = createFaultyFs({ failAt: 'rename', mode: 'crash' });
    await writeFileAtomic(join(dir, 'HEAD'), 'x', { fs }).catch(() => undefined);
    const [leftover] = await readdir(dir);
    expect(leftover && isAtomicTempName(leftover)).toBe(true);
    expect(isAtomicTempName('run-x.tmp')).toBe(false);
    expect(isAtomicTempName('HEAD.lock')).toBe(false);
  });

  it('reuses a fixed temporary path left by a crashed writer', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'state.json');
    await writeFile(`${target}.tmp`, 'left over from a crash, longer than the new content');
    await writeFileAtomic(target, '{}', { tempPath: `${target}.tmp` });
    expect(await readFile(target, 'utf8')).toBe('{}');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('removes its temporary file and keeps the old content when a step fails', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'meta.json');
    await writeFile(target, 'old');
    for (const failAt of ['writeFile', 'fsync', 'close', 'rename'] as const) {
      const fs = createFaultyFs({ failAt, code: 'ENOSPC' });
      await expect(writeFileAtomic(target, 'new', { fs })).rejects.toMatchObject({
        code: 'ENOSPC',
      });
      expect(await readFile(target, 'utf8')).toBe('old');
      expect(await readdir(dir)).toEqual(['meta.json']);
    }
  });

  it('leaves the old or the new content, never a torn file, when the process dies at any step', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'meta.json');
    const before = JSON.stringify({ version: 1, pad: 'a'.repeat(500) });
    const after = JSON.stringify({ version: 2, pad: 'b'.repeat(900) });
    const outcomes = new Set<string>();
    for (let step = 0; step < 9; step++) {
      await writeFile(target, before);
      const fs = createFaultyFs({ failAt: 'any', after: step, mode: 'crash' });
      await writeFileAtomic(target, after, { fs }).catch(() => undefined);
      const text = await readFile(target, 'utf8');
      expect([before, after]).toContain(text);
      outcomes.add(text === after ? 'new' : 'old');
    }
    // Crashes before the rename keep the old file; from the rename on the new one is there.
    expect(outcomes).toEqual(new Set(['old', 'new']));
  });
});

describe('writeFileAtomicSync()', () => {
  it('replaces the file and sets its times when asked', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'ref');
    await writeFile(target, 'old');
    writeFileAtomicSync(target, 'new', { times: 1_700_000_000 });
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mtimeMs).toBe(1_700_000_000_000);
    expect(await readdir(dir)).toEqual(['ref']);
  });

  it('fails with EEXIST when exclusive and the lock is held', async () => {
    const { path: dir } = await makeTempDir();
    const target = join(dir, 'HEAD');
    await writeFile(`${target}.lock`, 'held');
    expect(() => writeFileAtomicSync(target, 'x', { exclusive: true })).toThrow(
      expect.objectContaining({ code: 'EEXIST' }),
    );
    expect(await readFile(`${target}.lock`, 'utf8')).toBe('held');
  });
});

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errnoCode, hasErrno, ignoreMissing, isMissing } from './errno.js';
import { ASYNC_FS_METHODS, isNodeFs, nodeFs, SYNC_FS_METHODS } from './fs.js';
import { moveAsideAsCorrupt } from './move-aside.js';
import { Mutex } from './mutex.js';
import { isInside, normalizeRelative, relativeInside } from './paths.js';
import { sleep } from './sleep.js';
import { cleanupTempDirs, makeTempDir } from './testing.js';

afterEach(cleanupTempDirs);

describe('nodeFs', () => {
  it('carries every method of the Fs type, from the real modules', () => {
    for (const method of [...ASYNC_FS_METHODS, ...SYNC_FS_METHODS]) {
      expect(typeof nodeFs[method]).toBe('function');
    }
    expect(isNodeFs(nodeFs)).toBe(true);
    expect(isNodeFs(undefined)).toBe(true);
    expect(isNodeFs({ ...nodeFs })).toBe(false);
  });
});

describe('errno helpers', () => {
  const enoent = Object.assign(new Error('gone'), { code: 'ENOENT' });

  it('read the code of system errors only', () => {
    expect(errnoCode(enoent)).toBe('ENOENT');
    expect(errnoCode(new Error('plain'))).toBeUndefined();
    expect(errnoCode({ code: 42 })).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
    expect(hasErrno(enoent, 'EEXIST', 'ENOENT')).toBe(true);
    expect(hasErrno(enoent, 'EEXIST')).toBe(false);
    expect(isMissing(Object.assign(new Error(), { code: 'ENOTDIR' }))).toBe(true);
  });

  it('ignoreMissing() swallows ENOENT and rethrows the rest', async () => {
    await expect(ignoreMissing(Promise.reject(enoent))).resolves.toBeUndefined();
    await expect(ignoreMissing(Promise.resolve(7))).resolves.toBe(7);
    await expect(
      ignoreMissing(Promise.reject(Object.assign(new Error(), { code: 'EACCES' }))),
    ).rejects.toMatchObject({ code: 'EACCES' });
  });
});

describe('normalizeRelative()', () => {
  it.each([
    ['a/./b//c/', 'a/b/c'],
    ['a/../b', 'b'],
    ['**/*.md', '**/*.md'],
    ['..foo/x', '..foo/x'],
    ['.', ''],
  ])('%s is %j', (path, expected) => {
    expect(normalizeRelative(path)).toBe(expected);
  });

  it('refuses a path that climbs above its start', () => {
    expect(normalizeRelative('..')).toBeUndefined();
    expect(normalizeRelative('a/../../b')).toBeUndefined();
  });
});

describe('relativeInside() and isInside()', () => {
  it.each([
    ['/exec/agentRoot', 'notes.md', 'notes.md'],
    ['/exec/agentRoot', '/exec/agentRoot/a/b', 'a/b'],
    ['/exec/agentRoot', '.', ''],
    ['/exec/agentRoot', '..foo', '..foo'],
    ['/exec/agentRoot', 'a/../..b/c', '..b/c'],
    ['/exec/agentRoot/', 'x/./y//z', 'x/y/z'],
  ])('inside %s: %s is %j', (root, path, expected) => {
    expect(relativeInside(root, path)).toBe(expected);
    expect(isInside(root, path)).toBe(true);
  });

  it.each([
    ['/exec/agentRoot', '..'],
    ['/exec/agentRoot', '../x'],
    ['/exec/agentRoot', 'a/../../x'],
    ['/exec/agentRoot', '/etc/passwd'],
    ['/exec/agentRoot', '/exec/agentRootX/file'],
  ])('outside %s: %s', (root, path) => {
    expect(relativeInside(root, path)).toBeUndefined();
    expect(isInside(root, path)).toBe(false);
  });
});

describe('Mutex', () => {
  it('runs sections one at a time in call order, also after a failure', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const section = (name: string, ms: number, fail = false) =>
      mutex.run(async () => {
        order.push(`start ${name}`);
        await sleep(ms);
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([
      section('a', 20),
      section('b', 1, true),
      section('c', 5),
    ]);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('sleep()', () => {
  it('resolves true after the time, false at once when aborted', async () => {
    expect(await sleep(5)).toBe(true);
    const controller = new AbortController();
    const started = Date.now();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    expect(await pending).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await sleep(10, controller.signal)).toBe(false);
  });
});

describe('moveAsideAsCorrupt()', () => {
  it('renames the file with a stamp and reports a missing one as undefined', async () => {
    const { path: dir } = await makeTempDir();
    const path = join(dir, 'history.json');
    await writeFile(path, '{torn');
    expect(await moveAsideAsCorrupt(path, { stamp: 42 })).toBe(`${path}.corrupt-42`);
    expect(await readdir(dir)).toEqual(['history.json.corrupt-42']);
    expect(await readFile(`${path}.corrupt-42`, 'utf8')).toBe('{torn');
    expect(await moveAsideAsCorrupt(path)).toBeUndefined();
  });
});

import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gitHashObject, gitInit } from '../test/helpers/git.js';
import { writeTree } from '../test/helpers/tree.js';
import { hashFile, hashFileSync } from './hash-file.js';

afterEach(cleanupTempDirs);

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const gitBlob = (data: Buffer) =>
  createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

describe('hashFile()', () => {
  it('returns the sha256 of the bytes, sync and async alike', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    const big = Buffer.alloc(3 * (1 << 20) + 17, 7);
    writeTree(root, { 'a.txt': 'hello', empty: '' });
    writeFileSync(join(root, 'big.bin'), big);
    for (const [path, content] of [
      ['a.txt', 'hello'],
      ['empty', ''],
      ['big.bin', big],
    ] as const) {
      expect(await hashFile(root, path)).toBe(sha256(content));
      expect(hashFileSync(root, path)).toBe(sha256(content));
    }
  });

  it('matches git hash-object for git-blob-sha1', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'a.txt': 'hello\n', 'b.bin': '\u0000\u0001binary' });
    gitInit(root);
    for (const path of ['a.txt', 'b.bin']) {
      expect(await hashFile(root, path, { algorithm: 'git-blob-sha1' })).toBe(
        gitHashObject(root, path),
      );
      expect(hashFileSync(root, path, { algorithm: 'git-blob-sha1' })).toBe(
        gitHashObject(root, path),
      );
    }
  });

  it('hashes a symlink as its target text without following it', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, {
      'target.txt': 'content',
      link: { link: 'target.txt' },
      loop: { link: 'loop' },
    });
    expect(await hashFile(root, 'link')).toBe(sha256('target.txt'));
    expect(hashFileSync(root, 'loop', { algorithm: 'git-blob-sha1' })).toBe(
      gitBlob(Buffer.from('loop')),
    );
  });

  it('fails with FILES_NOT_FOUND, FILES_INVALID_PATH and FILES_PATH_ESCAPES_ROOT', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    const { path: outside } = await makeTempDir('hankweave-files-');
    writeTree(outside, { 'secret.txt': 'x' });
    mkdirSync(join(root, 'dir'));
    symlinkSync(outside, join(root, 'escape'));
    await expect(hashFile(root, 'missing.txt')).rejects.toMatchObject({ code: 'FILES_NOT_FOUND' });
    await expect(hashFile(root, 'dir')).rejects.toMatchObject({ code: 'FILES_INVALID_PATH' });
    await expect(hashFile(root, '../x')).rejects.toMatchObject({ code: 'FILES_PATH_ESCAPES_ROOT' });
    await expect(hashFile(root, 'escape/secret.txt')).rejects.toMatchObject({
      code: 'FILES_PATH_ESCAPES_ROOT',
    });
    expect(() => hashFileSync(root, 'missing.txt')).toThrow(
      expect.objectContaining({ code: 'FILES_NOT_FOUND' }),
    );
  });

  it('rejects an unknown algorithm with FILES_INVALID_OPTION', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'a.txt': '' });
    const algorithm = 'md5' as 'sha256';
    await expect(hashFile(root, 'a.txt', { algorithm })).rejects.toMatchObject({
      code: 'FILES_INVALID_OPTION',
    });
  });
});

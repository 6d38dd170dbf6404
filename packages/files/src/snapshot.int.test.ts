import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { frozenFs } from '../test/helpers/frozen-fs.js';
import { ageTree, writeTree } from '../test/helpers/tree.js';
import type { FilesWarning } from './errors.js';
import { diff, snapshot } from './snapshot.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

afterEach(cleanupTempDirs);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('snapshot()', () => {
  it('records lstat fields of files and symlinks, keyed by sorted relative path', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'b.txt': 'hello', 'a/link': { link: '../b.txt' }, '.gitignore': 'x\n' });
    ageTree(root);
    const resolver = new UnifiedFileResolver({ racyWindowMs: 0 });
    const files = snapshot(root, ['**'], { resolver });
    expect([...files.keys()]).toEqual(['.gitignore', 'a/link', 'b.txt']);
    const real = lstatSync(join(root, 'b.txt'), { bigint: true });
    expect(files.get('b.txt')).toEqual({
      kind: 'file',
      size: 5,
      mode: Number(real.mode),
      ino: real.ino,
      mtimeMs: Number(real.mtimeMs),
      mtimeNs: real.mtimeNs,
      ctimeNs: real.ctimeNs,
    });
    expect(files.get('a/link')).toMatchObject({ kind: 'symlink', size: '../b.txt'.length });
  });

  it('hashes files modified within the racy window and only those', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'a.txt': 'fresh' });
    const racy = snapshot(root, ['**'], {
      resolver: new UnifiedFileResolver({ racyWindowMs: 60_000 }),
    });
    expect(racy.get('a.txt')?.racyHash).toBe(sha256('fresh'));
    ageTree(root);
    const settled = snapshot(root, ['**'], {
      resolver: new UnifiedFileResolver({ racyWindowMs: 0 }),
    });
    expect(settled.get('a.txt')?.racyHash).toBeUndefined();
  });

  it('catches a rewrite that kept the stat, by re-hashing what the previous scan hashed', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'a.txt': 'one', 'b.txt': 'same' });
    ageTree(root);
    const fs = frozenFs((path) => path.endsWith('.txt'));
    // A window wider than the files' age makes the first scan treat them as racy.
    const wide = new UnifiedFileResolver({ fs, racyWindowMs: 7_200_000 });
    const before = snapshot(root, ['**'], { resolver: wide });
    writeFileSync(join(root, 'a.txt'), 'two');
    const later = new UnifiedFileResolver({ fs, racyWindowMs: 0 });
    const after = snapshot(root, ['**'], { resolver: later, previous: before });
    expect(diff(before, after).modified.map((change) => change.path)).toEqual(['a.txt']);
    // b.txt was verified unchanged and is no longer racy: no hash to carry forward.
    expect(after.get('b.txt')?.racyHash).toBeUndefined();
    // Without `previous` the stat is all there is, and it did not change.
    expect(diff(before, snapshot(root, ['**'], { resolver: later })).modified).toEqual([]);
  });

  it('sees a permission change as a modification', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'run.sh': '#!/bin/sh\n' });
    const resolver = new UnifiedFileResolver({ racyWindowMs: 0 });
    const before = snapshot(root, ['**'], { resolver });
    chmodSync(join(root, 'run.sh'), 0o755);
    const { modified } = diff(before, snapshot(root, ['**'], { resolver }));
    expect(modified).toEqual([
      expect.objectContaining({
        path: 'run.sh',
        after: expect.objectContaining({ mode: 0o100755 }),
      }),
    ]);
  });

  it('skips a file that vanished before its stat silently, and warns for other failures', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'gone.txt': '', 'denied.txt': '', 'ok.txt': '' });
    const fs = createFaultyFs({
      faults: [
        { failAt: 'lstatSync', pathIncludes: '/gone.txt', code: 'ENOENT', times: Infinity },
        { failAt: 'lstatSync', pathIncludes: '/denied.txt', code: 'EACCES', times: Infinity },
      ],
    });
    const warnings: FilesWarning[] = [];
    const files = snapshot(root, ['**'], {
      resolver: new UnifiedFileResolver({ fs }),
      onWarning: (warning) => warnings.push(warning),
    });
    expect([...files.keys()]).toEqual(['ok.txt']);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'FILES_UNREADABLE', path: 'denied.txt', errno: 'EACCES' }),
    ]);
  });
});

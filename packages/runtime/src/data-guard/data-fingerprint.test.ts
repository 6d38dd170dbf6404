import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { compareWalkOrder, takeFingerprint } from './data-fingerprint.js';
import { diffFingerprints } from './fingerprint-diff.js';

afterEach(cleanupTempDirs);

async function dataDir(files: Record<string, string>): Promise<string> {
  const { path } = await makeTempDir('data-fingerprint-');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(path, name, '..'), { recursive: true });
    writeFileSync(join(path, name), content);
  }
  return path;
}

describe('takeFingerprint()', () => {
  it('records every entry with its stat facts, in sorted depth-first order', async () => {
    const root = await dataDir({ 'b.txt': 'bb', 'a/x.txt': 'x', 'a-c.txt': 'c' });
    const print = takeFingerprint(root);
    expect([...print.entries.keys()]).toEqual(['', 'a', 'a/x.txt', 'a-c.txt', 'b.txt']);
    expect(print.entries.get('b.txt')).toMatchObject({ type: 'file', size: 2 });
    expect(print.entries.get('a')).toMatchObject({ type: 'directory' });
    expect(print.truncated).toBe(false);
  });

  it('follows a symlinked root and records links below it with their targets', async () => {
    const real = await dataDir({ 'notes.md': 'hello' });
    const { path: work } = await makeTempDir('data-fingerprint-link-');
    symlinkSync(real, join(work, 'link'));
    symlinkSync(join(real, 'notes.md'), join(real, 'alias.md'));
    const print = takeFingerprint(join(work, 'link'));
    expect(print.entries.get('')).toMatchObject({ type: 'directory' });
    expect(print.entries.get('alias.md')).toMatchObject({
      type: 'symlink',
      target: { type: 'file', size: 5 },
    });
  });

  it('does not enter a linked directory (links may form cycles)', async () => {
    const root = await dataDir({ 'a/x.txt': 'x' });
    symlinkSync(root, join(root, 'a', 'loop'));
    const print = takeFingerprint(root);
    expect([...print.entries.keys()]).toEqual(['', 'a', 'a/loop', 'a/x.txt']);
  });

  it('keeps only the first entries in walk order beyond the limit, and says so', async () => {
    const root = await dataDir({ 'a.txt': '', 'b/c.txt': '', 'd.txt': '', 'e.txt': '' });
    const print = takeFingerprint(root, { maxEntries: 3 });
    expect([...print.entries.keys()]).toEqual(['', 'a.txt', 'b', 'b/c.txt']);
    expect(print.truncated).toBe(true);
  });

  it('is empty when the data source is missing', async () => {
    const root = await dataDir({});
    expect(takeFingerprint(join(root, 'missing')).entries.size).toBe(0);
  });
});

describe('compareWalkOrder()', () => {
  it('orders a directory before its entries and its entries before the next sibling', () => {
    const paths = ['a-c', 'a/b', 'a', '', 'b', 'a/b/c'];
    expect(paths.sort(compareWalkOrder)).toEqual(['', 'a', 'a/b', 'a/b/c', 'a-c', 'b']);
  });
});

describe('diffFingerprints()', () => {
  it('finds created, modified and deleted entries, in walk order', async () => {
    const root = await dataDir({ 'keep.txt': 'k', 'edit.txt': 'one', 'gone/x.txt': 'x' });
    const before = takeFingerprint(root);
    writeFileSync(join(root, 'edit.txt'), 'two');
    rmSync(join(root, 'gone'), { recursive: true });
    writeFileSync(join(root, 'new.txt'), 'n');
    expect(diffFingerprints(before, takeFingerprint(root))).toEqual([
      { path: 'edit.txt', kind: 'modified' },
      { path: 'gone', kind: 'deleted' },
      { path: 'gone/x.txt', kind: 'deleted' },
      { path: 'new.txt', kind: 'created' },
    ]);
  });

  it('sees a rewrite that keeps the size and the mtime (the ctime moves)', async () => {
    const root = await dataDir({ 'same.txt': 'aaaa' });
    const before = takeFingerprint(root);
    const mtime = new Date(before.entries.get('same.txt')?.mtimeMs ?? 0);
    writeFileSync(join(root, 'same.txt'), 'bbbb');
    utimesSync(join(root, 'same.txt'), mtime, mtime);
    expect(diffFingerprints(before, takeFingerprint(root))).toEqual([
      { path: 'same.txt', kind: 'modified' },
    ]);
  });

  it('sees a write through a link into the file it points at', async () => {
    const root = await dataDir({ 'real.txt': 'a' });
    symlinkSync(join(root, 'real.txt'), join(root, 'link.txt'));
    const before = takeFingerprint(root);
    writeFileSync(join(root, 'link.txt'), 'changed through the link');
    expect(diffFingerprints(before, takeFingerprint(root)).map((change) => change.path)).toEqual([
      'link.txt',
      'real.txt',
    ]);
  });

  it('reports nothing when only reads happened', async () => {
    const root = await dataDir({ 'a.txt': 'a', 'd/b.txt': 'b' });
    const before = takeFingerprint(root);
    takeFingerprint(root);
    expect(diffFingerprints(before, takeFingerprint(root))).toEqual([]);
  });

  it('does not report an entry pushed past the limit as deleted', async () => {
    const root = await dataDir({ 'b.txt': '', 'c.txt': '', 'd.txt': '' });
    const before = takeFingerprint(root, { maxEntries: 2 });
    writeFileSync(join(root, 'a.txt'), 'new');
    expect(diffFingerprints(before, takeFingerprint(root, { maxEntries: 2 }))).toEqual([
      { path: 'a.txt', kind: 'created' },
    ]);
  });
});

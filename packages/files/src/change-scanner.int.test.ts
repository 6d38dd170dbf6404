import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { frozenFs } from '../test/helpers/frozen-fs.js';
import { ageTree, writeTree } from '../test/helpers/tree.js';
import { ChangeScanner } from './change-scanner.js';
import type { FileChanges } from './snapshot.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

afterEach(cleanupTempDirs);

const summary = (changes: FileChanges) => ({
  created: changes.created.map((change) => change.path),
  modified: changes.modified.map((change) => change.path),
  deleted: changes.deleted.map((change) => change.path),
});

describe('ChangeScanner', () => {
  describe('scan()', () => {
    it('reports every file as created first, then nothing while nothing changes', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '1', 'src/b.ts': '2' });
      const scanner = new ChangeScanner(root);
      expect(summary(scanner.scan(['**']).changes)).toEqual({
        created: ['a.ts', 'src/b.ts'],
        modified: [],
        deleted: [],
      });
      expect(summary(scanner.scan(['**']).changes)).toEqual({
        created: [],
        modified: [],
        deleted: [],
      });
    });

    it('reports created, modified and deleted files with before and after stats', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '1', 'src/b.ts': '2', 'src/c.ts': '3' });
      const scanner = new ChangeScanner(root);
      scanner.scan(['**']);
      writeFileSync(join(root, 'a.ts'), '1 and more');
      rmSync(join(root, 'src/c.ts'));
      mkdirSync(join(root, 'src/new'));
      writeFileSync(join(root, 'src/new/d.ts'), '4');
      const { changes, snapshot } = scanner.scan(['**']);
      expect(summary(changes)).toEqual({
        created: ['src/new/d.ts'],
        modified: ['a.ts'],
        deleted: ['src/c.ts'],
      });
      expect(changes.modified[0]).toMatchObject({ before: { size: 1 }, after: { size: 10 } });
      expect(changes.deleted[0]?.before).toBeDefined();
      expect(scanner.current).toBe(snapshot);
    });

    it('reads only the directories whose stat changed once listings are settled', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a/x.ts': '', 'b/y.ts': '', 'c/d/z.ts': '' });
      ageTree(root);
      const fs = createFaultyFs();
      const scanner = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs, racyWindowMs: 0 }),
      });
      scanner.scan(['**']);
      fs.clearTrace();
      expect(summary(scanner.scan(['**']).changes).created).toEqual([]);
      expect(fs.calls('readdirSync')).toBe(0);
      writeFileSync(join(root, 'c/d/new.ts'), '');
      expect(summary(scanner.scan(['**']).changes).created).toEqual(['c/d/new.ts']);
      const read = fs.trace.filter((call) => call.op === 'readdirSync').map((call) => call.path);
      expect(read).toEqual([join(root, 'c/d')]);
    });

    it('notices new entries at the top of a root that is a symlink to a directory', async () => {
      const { path: base } = await makeTempDir('hankweave-files-');
      writeTree(base, { 'real/a.ts': '' });
      symlinkSync(join(base, 'real'), join(base, 'link'));
      ageTree(base);
      const resolver = new UnifiedFileResolver({ racyWindowMs: 0 });
      const scanner = new ChangeScanner(join(base, 'link'), { resolver });
      scanner.scan(['**']);
      writeFileSync(join(base, 'real/b.ts'), '');
      expect(summary(scanner.scan(['**']).changes).created).toEqual(['b.ts']);
    });

    it('re-reads a directory listed while its mtime was racy, so same-tick additions are found', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'd/a.ts': '' });
      // The frozen stat plays a coarse clock: adding b.ts leaves d's stat exactly as it was.
      const frozen = (path: string) => path === join(root, 'd');
      const racyAware = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs: frozenFs(frozen), racyWindowMs: 60_000 }),
      });
      const trusting = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs: frozenFs(frozen), racyWindowMs: 0 }),
      });
      racyAware.scan(['**']); // d was just created: its listing is not trusted
      ageTree(root);
      trusting.scan(['**']); // d is an hour old for this one: its listing is trusted
      writeFileSync(join(root, 'd/b.ts'), '');
      expect(summary(trusting.scan(['**']).changes).created).toEqual([]);
      expect(summary(racyAware.scan(['**']).changes).created).toEqual(['d/b.ts']);
    });

    it('follows .gitignore edits and pattern changes', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { '.gitignore': '', 'a.ts': '', 'b.md': '' });
      const scanner = new ChangeScanner(root);
      scanner.scan(['**/*.ts']);
      writeFileSync(join(root, '.gitignore'), 'a.ts\n');
      expect(summary(scanner.scan(['**/*.ts']).changes).deleted).toEqual(['a.ts']);
      expect(summary(scanner.scan(['**/*.ts', '*.md']).changes).created).toEqual(['b.md']);
    });
  });

  describe('reset()', () => {
    it('compares the next scan with the given baseline', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '' });
      const scanner = new ChangeScanner(root);
      const first = scanner.scan(['**']).snapshot;
      scanner.reset();
      expect(summary(scanner.scan(['**']).changes).created).toEqual(['a.ts']);
      scanner.reset(first);
      expect(summary(scanner.scan(['**']).changes).created).toEqual([]);
    });
  });
});

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frozenFs } from '../test/helpers/frozen-fs.js';
import { ageTree, tmpDir, writeTree } from '../test/helpers/tmp-dir.js';
import { ChangeScanner } from './change-scanner.js';
import type { FileChanges } from './snapshot.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

const summary = (changes: FileChanges) => ({
  created: changes.created.map((change) => change.path),
  modified: changes.modified.map((change) => change.path),
  deleted: changes.deleted.map((change) => change.path),
});

describe('ChangeScanner', () => {
  describe('scan()', () => {
    it('reports every file as created first, then nothing while nothing changes', () => {
      const root = tmpDir();
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

    it('reports created, modified and deleted files with before and after stats', () => {
      const root = tmpDir();
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

    it('reads only the directories whose stat changed once listings are settled', () => {
      const root = tmpDir();
      writeTree(root, { 'a/x.ts': '', 'b/y.ts': '', 'c/d/z.ts': '' });
      ageTree(root);
      const { fs, readdir } = frozenFs(() => false);
      const scanner = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs, racyWindowMs: 0 }),
      });
      scanner.scan(['**']);
      readdir.mockClear();
      expect(summary(scanner.scan(['**']).changes).created).toEqual([]);
      expect(readdir).not.toHaveBeenCalled();
      writeFileSync(join(root, 'c/d/new.ts'), '');
      expect(summary(scanner.scan(['**']).changes).created).toEqual(['c/d/new.ts']);
      expect(readdir.mock.calls.map(([path]) => path)).toEqual([join(root, 'c/d')]);
    });

    it('notices new entries at the top of a root that is a symlink to a directory', () => {
      const base = tmpDir();
      writeTree(base, { 'real/a.ts': '' });
      symlinkSync(join(base, 'real'), join(base, 'link'));
      ageTree(base);
      const resolver = new UnifiedFileResolver({ racyWindowMs: 0 });
      const scanner = new ChangeScanner(join(base, 'link'), { resolver });
      scanner.scan(['**']);
      writeFileSync(join(base, 'real/b.ts'), '');
      expect(summary(scanner.scan(['**']).changes).created).toEqual(['b.ts']);
    });

    it('re-reads a directory listed while its mtime was racy, so same-tick additions are found', () => {
      const root = tmpDir();
      writeTree(root, { 'd/a.ts': '' });
      // The frozen stat plays a coarse clock: adding b.ts leaves d's stat exactly as it was.
      const frozen = (path: string) => path === join(root, 'd');
      const racyAware = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs: frozenFs(frozen).fs, racyWindowMs: 60_000 }),
      });
      const trusting = new ChangeScanner(root, {
        resolver: new UnifiedFileResolver({ fs: frozenFs(frozen).fs, racyWindowMs: 0 }),
      });
      racyAware.scan(['**']); // d was just created: its listing is not trusted
      ageTree(root);
      trusting.scan(['**']); // d is an hour old for this one: its listing is trusted
      writeFileSync(join(root, 'd/b.ts'), '');
      expect(summary(trusting.scan(['**']).changes).created).toEqual([]);
      expect(summary(racyAware.scan(['**']).changes).created).toEqual(['d/b.ts']);
    });

    it('follows .gitignore edits and pattern changes', () => {
      const root = tmpDir();
      writeTree(root, { '.gitignore': '', 'a.ts': '', 'b.md': '' });
      const scanner = new ChangeScanner(root);
      scanner.scan(['**/*.ts']);
      writeFileSync(join(root, '.gitignore'), 'a.ts\n');
      expect(summary(scanner.scan(['**/*.ts']).changes).deleted).toEqual(['a.ts']);
      expect(summary(scanner.scan(['**/*.ts', '*.md']).changes).created).toEqual(['b.md']);
    });
  });

  describe('reset()', () => {
    it('compares the next scan with the given baseline', () => {
      const root = tmpDir();
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

import { chmodSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cleanupTempDirs,
  createFaultyFs,
  type FaultyFs,
  makeTempDir,
} from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTree } from '../test/helpers/tree.js';
import type { FilesWarning } from './errors.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

afterEach(cleanupTempDirs);

/** The directories a recording fs was asked to list, in order. */
const readPaths = (fs: FaultyFs) =>
  fs.trace.filter((call) => call.op === 'readdirSync').map((call) => call.path);

describe('UnifiedFileResolver', () => {
  describe('resolve()', () => {
    it('never lists .git, the data source, .hankweave or checkpoint dirs, at any depth', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        'a.ts': '',
        '.git/config': '',
        'sub/.git': 'gitdir: elsewhere',
        'sub/nested/.git/HEAD': '',
        'sub/b.ts': '',
        'read_only_data_source/data.csv': '',
        '.hankweave/state.json': '',
        'x/.hankweavecheckpoints/HEAD': '',
        '.hankweavecheckpoints.lock': '',
        'data/read_only_data_source': { link: '../a.ts' },
      });
      expect(new UnifiedFileResolver().resolve(root, ['**'])).toEqual(['a.ts', 'sub/b.ts']);
    });

    it('excludes extra names given as an option', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '', 'quarantine/b.ts': '', 'c/quarantine': '' });
      const resolver = new UnifiedFileResolver({ excludeNames: ['quarantine'] });
      expect(resolver.resolve(root, ['**'])).toEqual(['a.ts']);
    });

    it('prunes ignored directories without reading them', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { '.gitignore': 'node_modules/\n', 'node_modules/x/y.js': '', 'a.js': '' });
      const fs = createFaultyFs();
      expect(new UnifiedFileResolver({ fs }).resolve(root, ['**'])).toEqual(['.gitignore', 'a.js']);
      expect(readPaths(fs).some((path) => path.includes('node_modules'))).toBe(false);
    });

    it('applies negations to the whole set and prunes the directories they cover', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        'src/a.ts': '',
        'src/a.log': '',
        'src/gen/b.ts': '',
        'node_modules/m/i.ts': '',
        'b.log': '',
      });
      const fs = createFaultyFs();
      const resolver = new UnifiedFileResolver({ fs });
      expect(resolver.resolve(root, ['**', '!node_modules/', '!**/*.log', '!src/gen/'])).toEqual([
        'src/a.ts',
      ]);
      expect(
        readPaths(fs).some((path) => path.includes('node_modules') || path.endsWith('gen')),
      ).toBe(false);
    });

    it('matches globs relative to the root and skips directories no glob can reach', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        'a.md': '',
        'src/x.ts': '',
        'src/deep/y.ts': '',
        'src/z.js': '',
        'docs/d.md': '',
        'other/o.ts': '',
      });
      const fs = createFaultyFs();
      const resolver = new UnifiedFileResolver({ fs });
      expect(resolver.resolve(root, ['src/**/*.ts', '*.md', 'docs/'])).toEqual([
        'a.md',
        'docs/d.md',
        'src/deep/y.ts',
        'src/x.ts',
      ]);
      expect(readPaths(fs).some((path) => path.endsWith('other'))).toBe(false);
    });

    it('lists symlinks as entries without following them, loops included', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        'dir/f.ts': '',
        loop: { link: '.' },
        'to-dir': { link: 'dir' },
        dangling: { link: 'nowhere' },
        'dir/up': { link: '..' },
      });
      expect(new UnifiedFileResolver().resolve(root, ['**'])).toEqual([
        'dangling',
        'dir/f.ts',
        'dir/up',
        'loop',
        'to-dir',
      ]);
    });

    it('keeps spaces, unicode and names differing only in case', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        'with space/a b.ts': '',
        'ünïcødé/日本.md': '',
        'Readme.md': '',
        'README.md': '',
        'readme.md': '',
        '.gitignore': 'Readme.md\n',
      });
      expect(new UnifiedFileResolver().resolve(root, ['**'])).toEqual([
        '.gitignore',
        'README.md',
        'readme.md',
        'with space/a b.ts',
        'ünïcødé/日本.md',
      ]);
    });

    it('folds case in rules and globs when ignoreCase is set', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'A.LOG': '', 'b.ts': '', '.gitignore': '*.log\n' });
      const resolver = new UnifiedFileResolver({ ignoreCase: true });
      expect(resolver.resolve(root, ['**/*.TS', '.gitignore'])).toEqual(['.gitignore', 'b.ts']);
      expect(resolver.resolve(root, ['**'])).toEqual(['.gitignore', 'b.ts']);
    });

    it('reports an unreadable directory as a warning and lists the rest', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '', 'locked/b.ts': '', 'open/c.ts': '' });
      const fs = createFaultyFs({
        failAt: 'readdirSync',
        pathIncludes: '/locked',
        code: 'EACCES',
        times: Infinity,
      });
      const seen: FilesWarning[] = [];
      const resolver = new UnifiedFileResolver({ fs, onWarning: (warning) => seen.push(warning) });
      const result = resolver.resolveDetailed(root, ['**']);
      expect(result.paths).toEqual(['a.ts', 'open/c.ts']);
      expect(result.warnings).toEqual([
        expect.objectContaining({ code: 'FILES_UNREADABLE', path: 'locked', errno: 'EACCES' }),
      ]);
      expect(seen).toEqual(result.warnings);
    });

    // As root, permission bits do not stop reads: the injected-fs test above covers root.
    const isRoot = process.getuid?.() === 0;
    it.skipIf(isRoot)(
      'reports a real chmod 000 directory (skipped as root, see above)',
      async () => {
        const { path: root } = await makeTempDir('hankweave-files-');
        writeTree(root, { 'a.ts': '', 'locked/b.ts': '' });
        chmodSync(join(root, 'locked'), 0o000);
        try {
          const result = new UnifiedFileResolver().resolveDetailed(root, ['**']);
          expect(result.paths).toEqual(['a.ts']);
          expect(result.warnings[0]).toMatchObject({ code: 'FILES_UNREADABLE', path: 'locked' });
        } finally {
          chmodSync(join(root, 'locked'), 0o755);
        }
      },
    );

    it('does not read a symlinked .gitignore and says so', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'rules.txt': '*.ts\n', 'a.ts': '', '.gitignore': { link: 'rules.txt' } });
      const result = new UnifiedFileResolver().resolveDetailed(root, ['**']);
      expect(result.paths).toEqual(['.gitignore', 'a.ts', 'rules.txt']);
      expect(result.warnings).toEqual([
        expect.objectContaining({ code: 'FILES_UNREADABLE', path: '.gitignore' }),
      ]);
    });

    it('sees a .gitignore edited between two calls, even a same-size edit right away', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        '.gitignore': 'a.ts\n',
        'a.ts': '',
        'b.ts': '',
        'sub/.gitignore': '',
        'sub/c.ts': '',
      });
      const resolver = new UnifiedFileResolver();
      expect(resolver.resolve(root, ['**/*.ts'])).toEqual(['b.ts', 'sub/c.ts']);
      writeFileSync(join(root, '.gitignore'), 'b.ts\n');
      expect(resolver.resolve(root, ['**/*.ts'])).toEqual(['a.ts', 'sub/c.ts']);
      writeFileSync(join(root, 'sub/.gitignore'), 'c.ts\n');
      expect(resolver.resolve(root, ['**/*.ts'])).toEqual(['a.ts']);
      renameSync(join(root, 'sub/.gitignore'), join(root, 'sub/old'));
      expect(resolver.resolve(root, ['**/*.ts'])).toEqual(['a.ts', 'sub/c.ts']);
    });

    it('rejects patterns that leave the root and accepts absolute ones inside it', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'src/a.ts': '' });
      const resolver = new UnifiedFileResolver();
      expect(resolver.resolve(root, [join(root, 'src/**')])).toEqual(['src/a.ts']);
      expect(() => resolver.resolve(root, ['../**'])).toThrow(
        expect.objectContaining({ code: 'FILES_PATH_ESCAPES_ROOT' }),
      );
      expect(() => resolver.resolve(root, ['/etc/**'])).toThrow(
        expect.objectContaining({ code: 'FILES_PATH_ESCAPES_ROOT' }),
      );
      expect(() => resolver.resolve(root, [''])).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_PATTERN' }),
      );
    });

    it('returns nothing without a positive pattern', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'a.ts': '' });
      expect(new UnifiedFileResolver().resolve(root, ['!a.ts'])).toEqual([]);
    });

    it('fails with FILES_ROOT_NOT_FOUND for a missing root or a file, FILES_UNREADABLE if unlistable', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'f.txt': '' });
      const resolver = new UnifiedFileResolver();
      for (const bad of [join(root, 'missing'), join(root, 'f.txt')]) {
        expect(() => resolver.resolve(bad, ['**'])).toThrow(
          expect.objectContaining({ code: 'FILES_ROOT_NOT_FOUND' }),
        );
      }
      const fs = createFaultyFs({
        failAt: 'readdirSync',
        pathIncludes: root,
        code: 'EACCES',
        times: Infinity,
      });
      expect(() => new UnifiedFileResolver({ fs }).resolve(root, ['**'])).toThrow(
        expect.objectContaining({ code: 'FILES_UNREADABLE' }),
      );
    });

    it('accepts a root that is itself a symlink to a directory', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, { 'real/a.ts': '' });
      symlinkSync(join(root, 'real'), join(root, 'link'));
      expect(new UnifiedFileResolver().resolve(join(root, 'link'), ['**'])).toEqual(['a.ts']);
    });
  });

  describe('createPathMatcher()', () => {
    it('tests single paths, relative or absolute, like resolve() would list them', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, {
        '.gitignore': 'dist/\n*.log\n',
        'src/a.ts': '',
        'dist/b.ts': '',
        'real/c.ts': '',
        linked: { link: 'real' },
        'sub/.gitignore': 'secret.ts\n',
      });
      const matches = new UnifiedFileResolver().createPathMatcher(root, ['**/*.ts', '!**/skip/**']);
      expect(matches('src/a.ts')).toBe(true);
      expect(matches(join(root, 'src/a.ts'))).toBe(true);
      expect(matches('src/not-yet-written.ts')).toBe(true);
      expect(matches('new-dir/x.ts')).toBe(true);
      expect(matches('dist/b.ts')).toBe(false);
      expect(matches('sub/secret.ts')).toBe(false);
      expect(matches('x.log')).toBe(false);
      expect(matches('a/skip/x.ts')).toBe(false);
      expect(matches('linked/c.ts')).toBe(false);
      expect(matches('.git/x.ts')).toBe(false);
      expect(matches('read_only_data_source/x.ts')).toBe(false);
      expect(matches('../outside.ts')).toBe(false);
      expect(matches('/etc/x.ts')).toBe(false);
      expect(matches('src')).toBe(false);
    });
  });
});

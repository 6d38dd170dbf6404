import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import micromatch from 'micromatch';
import { afterEach, describe, expect, it } from 'vitest';
import { gitInit, gitInitBare, gitLsFiles } from '../test/helpers/git.js';
import { writeRandomTree } from '../test/helpers/random-tree.js';
import { type TreeSpec, writeTree } from '../test/helpers/tree.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

afterEach(cleanupTempDirs);

/** Hand-written trees for the rules people trip over; each is checked against git too. */
const SCENARIOS: Record<string, TreeSpec> = {
  'a nested negation re-includes a directory a parent rule excludes by name': {
    '.gitignore': 'b\n',
    'a/.gitignore': '!b\n',
    'a/b/f': '',
    'b/f': '',
    'a/b/b': '',
  },
  'a directory excluded by a parent cannot be re-included': {
    '.gitignore': 'build/\n!build/keep\n',
    'build/keep': '',
    'build/x': '',
    'src/build/y': '',
  },
  'children of a directory can be excluded and one re-included': {
    '.gitignore': 'logs/*\n!logs/keep.log\n',
    'logs/keep.log': '',
    'logs/a.log': '',
    'x/logs/b': '',
  },
  'anchored rules apply only at their own level': {
    '.gitignore': '/dist\nsrc/*.js\n',
    'dist/a': '',
    'src/dist/b': '',
    'src/c.js': '',
    'src/d/e.js': '',
  },
  'a nested .gitignore anchors relative to its directory': {
    'pkg/.gitignore': '/out/\n*.tmp\n!keep.tmp\n',
    'pkg/out/a': '',
    'pkg/sub/out/b': '',
    'pkg/x.tmp': '',
    'pkg/sub/keep.tmp': '',
    'out/c': '',
  },
  'trailing spaces are trimmed unless escaped, escapes make glob characters literal': {
    '.gitignore': 'a.txt   \nb\\ \n\\#hash\n\\!bang\nstar\\*\n',
    'a.txt': '',
    'b ': '',
    b: '',
    '#hash': '',
    '!bang': '',
    'star*': '',
    starx: '',
  },
  'double stars match zero or more directories': {
    '.gitignore': 'doc/**/*.md\n**/gen/\n',
    'doc/a.md': '',
    'doc/x/y/b.md': '',
    'a/doc/c.md': '',
    'gen/z': '',
    'q/gen/z': '',
    'q/gen.ts': '',
  },
  'wildcards match bytes, as git does (? is one byte, not one character)': {
    '.gitignore': '?.md\n??.txt\n[!a]?.log\n',
    'ﬀ.md': '',
    'a.md': '',
    'é.md': '',
    'é.txt': '',
    'ab.txt': '',
    'abc.txt': '',
    'é.log': '',
    'ab.log': '',
  },
  'names differing only in case are distinct': {
    '.gitignore': 'Doc\n',
    'Doc/a': '',
    'doc/a': '',
    'README.md': '',
    'readme.md': '',
  },
  'a comment, CRLF line endings and a BOM are handled like git': {
    '.gitignore': '\uFEFF# comment\r\n*.log\r\n\r\n!keep.log\r\n',
    'a.log': '',
    'keep.log': '',
    '#comment': '',
  },
};

const SEEDS = Array.from({ length: 48 }, (_, i) => 1000 + i * 7919);

function describeTree(ignoreFiles: Record<string, string>): string {
  return Object.entries(ignoreFiles)
    .map(([path, text]) => `--- ${path}\n${text}`)
    .join('\n');
}

describe('UnifiedFileResolver against native git', () => {
  describe('resolve()', () => {
    it.each(SEEDS)('lists exactly what git ls-files lists (seed %i)', async (seed) => {
      const { path: root } = await makeTempDir('hankweave-files-');
      const tree = writeRandomTree(root, seed);
      gitInitBare(root);
      const expected = gitLsFiles(root);
      const actual = new UnifiedFileResolver().resolve(root, ['**']);
      expect(actual, describeTree(tree.ignoreFiles)).toEqual(expected);
    });

    it.each(SEEDS.slice(0, 12))(
      'agrees with git filtered by globs and negations (seed %i)',
      async (seed) => {
        const { path: root } = await makeTempDir('hankweave-files-');
        writeRandomTree(root, seed);
        gitInitBare(root);
        const positive = ['**/*.ts', '*/*.js', 'a/**', '{b,lib}/**/*.md'];
        const negative = ['**/deep/**', '*.md'];
        const expected = gitLsFiles(root).filter(
          (path) =>
            micromatch.isMatch(path, positive, { dot: true }) &&
            !micromatch.isMatch(path, negative, { dot: true }),
        );
        const patterns = [...positive, ...negative.map((glob) => `!${glob}`)];
        expect(new UnifiedFileResolver().resolve(root, patterns)).toEqual(expected);
      },
    );

    it.each(Object.keys(SCENARIOS))('agrees with git when %s', async (name) => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeTree(root, SCENARIOS[name] as TreeSpec);
      gitInitBare(root);
      expect(new UnifiedFileResolver().resolve(root, ['**'])).toEqual(gitLsFiles(root));
    });

    it('honours .git/info/exclude below the root .gitignore, as git does', async () => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeRandomTree(root, 42);
      gitInit(root);
      writeFileSync(join(root, '.git', 'info', 'exclude'), '*.md\n!a\nsrc/\n');
      writeFileSync(join(root, '.gitignore'), '!keep.md\n');
      expect(new UnifiedFileResolver().resolve(root, ['**'])).toEqual(gitLsFiles(root));
    });
  });

  describe('createPathMatcher()', () => {
    it.each(SEEDS.slice(0, 16))(
      'says true exactly for the listed paths (seed %i)',
      async (seed) => {
        const { path: root } = await makeTempDir('hankweave-files-');
        const tree = writeRandomTree(root, seed);
        const resolver = new UnifiedFileResolver();
        const listed = new Set(resolver.resolve(root, ['**']));
        const matches = resolver.createPathMatcher(root, ['**']);
        const disagreements = tree.entries.filter((path) => matches(path) !== listed.has(path));
        expect(disagreements, describeTree(tree.ignoreFiles)).toEqual([]);
      },
    );
  });
});

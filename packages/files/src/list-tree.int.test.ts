import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gitInitBare, gitLsFiles } from '../test/helpers/git.js';
import { writeRandomTree } from '../test/helpers/random-tree.js';
import { writeTree } from '../test/helpers/tree.js';
import { UnifiedFileResolver } from './unified-file-resolver.js';

afterEach(cleanupTempDirs);

const SEEDS = Array.from({ length: 12 }, (_, i) => 5000 + i * 7919);

describe('UnifiedFileResolver.listTree', () => {
  it.each(SEEDS)('lists the files git lists (seed %i)', async (seed) => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeRandomTree(root, seed);
    gitInitBare(root);
    expect(new UnifiedFileResolver().listTree(root).files).toEqual(gitLsFiles(root));
  });

  it('lists directories and special files, never through a symlink, and records the rules', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    const { path: outside } = await makeTempDir('hankweave-files-outside-');
    writeTree(root, {
      '.gitignore': 'node_modules/\n*.log\n',
      'src/a.ts': '',
      'src/empty': { dir: true },
      'src/.gitignore': 'gen/\n',
      'src/gen/x.ts': '',
      'node_modules/p/index.js': '',
      'debug.log': '',
      'out-link': { link: outside },
      'read_only_data_source/input.csv': '',
    });
    writeFileSync(join(outside, 'secret'), '');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const listing = new UnifiedFileResolver().listTree(root);
    expect(listing.files).toEqual(['.gitignore', 'out-link', 'pipe', 'src/.gitignore', 'src/a.ts']);
    expect(listing.directories).toEqual(['src', 'src/empty']);
    expect(listing.specials).toEqual(['pipe']);
    expect(listing.ignoreFiles).toEqual({
      '.gitignore': 'node_modules/\n*.log\n',
      'src/.gitignore': 'gen/\n',
    });
  });

  it('with recorded rules, ignores what was ignored then, whatever the .gitignore files say now', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, {
      '.gitignore': 'dist/\n',
      'pkg/.gitignore': '*.tmp\n',
      'pkg/a.ts': '',
      'dist/bundle.js': '',
    });
    const resolver = new UnifiedFileResolver();
    const then = resolver.listTree(root);
    // An agent hides its files: a root .gitignore that ignores everything, the nested one gone.
    writeFileSync(join(root, '.gitignore'), '*\n');
    unlinkSync(join(root, 'pkg/.gitignore'));
    writeTree(root, {
      'fresh/new.txt': '',
      'pkg/half.tmp': '',
      'pkg/sub/.gitignore': '*\n',
      'pkg/sub/hidden.ts': '',
      'dist/more.js': '',
    });
    expect(resolver.listTree(root).files).toEqual([]);
    const now = resolver.listTree(root, { ignoreFiles: then.ignoreFiles });
    expect(now.files).toEqual([
      '.gitignore',
      'fresh/new.txt',
      'pkg/a.ts',
      'pkg/sub/.gitignore',
      'pkg/sub/hidden.ts',
    ]);
    expect(now.directories).toEqual(['fresh', 'pkg', 'pkg/sub']);
    expect(now.ignoreFiles).toEqual(then.ignoreFiles);
  });

  it('with recorded rules, agrees with git given the same rules (seeded trees)', async () => {
    for (const seed of SEEDS.slice(0, 6)) {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeRandomTree(root, seed);
      const resolver = new UnifiedFileResolver();
      const then = resolver.listTree(root);
      // Delete every rule file and list with the recorded rules; then put the rule files back
      // for git: both must list the same tree (less the rule files, absent from the listing).
      for (const path of Object.keys(then.ignoreFiles)) rmSync(join(root, path));
      writeFileSync(join(root, 'zz-new.txt'), '');
      const now = resolver.listTree(root, { ignoreFiles: then.ignoreFiles });
      for (const [path, text] of Object.entries(then.ignoreFiles)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), Buffer.from(text, 'latin1'));
      }
      gitInitBare(root);
      const expected = gitLsFiles(root).filter((path) => !Object.hasOwn(then.ignoreFiles, path));
      expect(now.files, `seed ${seed}`).toEqual(expected);
    }
  });

  it.each(SEEDS.slice(0, 6))(
    'resolveListed gives what resolve gives, without a second walk (seed %i)',
    async (seed) => {
      const { path: root } = await makeTempDir('hankweave-files-');
      writeRandomTree(root, seed);
      execFileSync('mkfifo', [join(root, 'pipe.ts')]);
      const resolver = new UnifiedFileResolver();
      const listing = resolver.listTree(root);
      for (const patterns of [
        ['**'],
        ['**/*.ts', '!**/deep/**'],
        ['*/*.js', 'a/**', '{b,lib}/**/*.md'],
        ['src/**', '!*.md'],
        [],
      ]) {
        expect(resolver.resolveListed(root, listing, patterns), patterns.join(' ')).toEqual(
          resolver.resolve(root, patterns),
        );
      }
    },
  );

  it('refuses a root that is a file', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeFileSync(join(root, 'file'), '');
    symlinkSync(join(root, 'file'), join(root, 'link'));
    expect(() => new UnifiedFileResolver().listTree(join(root, 'file'))).toThrow(/not a directory/);
  });
});

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyRuleSource, listCopyTree } from './copy-tree.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'copy-tree-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const paths = (listing: ReturnType<typeof listCopyTree>) => listing.files.map((file) => file.path);
const skipped = (listing: ReturnType<typeof listCopyTree>) =>
  listing.ignored.map((entry) => entry.path);

describe('listCopyTree()', () => {
  it('filters by the defaults when the hank root has no .gitignore', () => {
    const root = tree({
      'hank.json': '{}',
      'templates/app/index.js': 'x',
      'templates/app/node_modules/left-pad/index.js': 'x',
      'templates/app/dist/out.js': 'x',
      'templates/app/debug.log': 'x',
      'templates/app/.venv/bin/python': 'x',
      'templates/app/src/__pycache__/a.pyc': 'x',
      'templates/app/.DS_Store': 'x',
    });
    const listing = listCopyTree(root, 'templates/app');
    expect(listing.source).toBe('defaults');
    expect(paths(listing)).toEqual(['templates/app/index.js']);
    expect(skipped(listing)).toEqual([
      'templates/app/.DS_Store',
      'templates/app/.venv',
      'templates/app/debug.log',
      'templates/app/dist',
      'templates/app/node_modules',
      'templates/app/src/__pycache__',
    ]);
  });

  it('uses the root .gitignore instead of the defaults, paths relative to the root', () => {
    const root = tree({
      '.gitignore': 'templates/**/cache/\n*.tmp\n',
      'templates/a/cache/big.bin': 'x',
      'templates/a/keep.md': 'x',
      'templates/a/dist/kept.js': 'x',
      'templates/a/x.tmp': 'x',
    });
    const listing = listCopyTree(root, './templates');
    expect(listing.source).toBe('gitignore');
    expect(copyRuleSource(root)).toBe('gitignore');
    expect(paths(listing)).toEqual(['templates/a/dist/kept.js', 'templates/a/keep.md']);
    expect(skipped(listing)).toEqual(['templates/a/cache', 'templates/a/x.tmp']);
  });

  it('applies .gitignore files nested in the tree and on the way to it, as git does', () => {
    const root = tree({
      '.gitignore': '*.log\n',
      'templates/.gitignore': 'secret.txt\n',
      'templates/app/.gitignore': '!keep.log\ngen/\n',
      'templates/app/keep.log': 'x',
      'templates/app/drop.log': 'x',
      'templates/app/secret.txt': 'x',
      'templates/app/gen/a.js': 'x',
      'templates/app/main.js': 'x',
    });
    const listing = listCopyTree(root, 'templates/app');
    expect(paths(listing)).toEqual([
      'templates/app/.gitignore',
      'templates/app/keep.log',
      'templates/app/main.js',
    ]);
    expect(skipped(listing)).toEqual([
      'templates/app/drop.log',
      'templates/app/gen',
      'templates/app/secret.txt',
    ]);
  });

  it('lists a file named as `from` even when a rule ignores it', () => {
    const root = tree({ 'notes/run.log': 'x' });
    const listing = listCopyTree(root, 'notes/run.log');
    expect(listing).toMatchObject({ kind: 'file', rootIgnored: true });
    expect(paths(listing)).toEqual(['notes/run.log']);
  });

  it('reports links and keeps the executable bit, never following a link', () => {
    const root = tree({ 'tpl/run.sh': '#!/bin/sh\n', 'outside/secret': 's' });
    chmodSync(join(root, 'tpl/run.sh'), 0o755);
    symlinkSync(join(root, 'outside'), join(root, 'tpl/linked-dir'));
    symlinkSync('/etc/passwd', join(root, 'tpl/passwd'));
    const listing = listCopyTree(root, 'tpl');
    expect(listing.files).toEqual([{ path: 'tpl/run.sh', mode: 0o755, size: 10 }]);
    expect(listing.links).toEqual(['tpl/linked-dir', 'tpl/passwd']);
  });

  it('skips an ignored directory that is a symlink without following it', () => {
    const root = tree({ 'tpl/a.txt': 'x', 'elsewhere/deep/file': 'x' });
    symlinkSync(join(root, 'elsewhere'), join(root, 'tpl/node_modules'));
    const listing = listCopyTree(root, 'tpl');
    expect(paths(listing)).toEqual(['tpl/a.txt']);
    expect(listing.links).toEqual([]);
    expect(skipped(listing)).toEqual(['tpl/node_modules']);
  });

  it('does not hang on a .gitignore that is a FIFO, and falls back to the defaults', () => {
    const root = tree({ 'tpl/a.txt': 'x', 'tpl/dist/x.js': 'x' });
    execFileSync('mkfifo', [join(root, '.gitignore')]);
    execFileSync('mkfifo', [join(root, 'tpl/.gitignore')]);
    const started = Date.now();
    const listing = listCopyTree(root, 'tpl');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(listing.source).toBe('defaults');
    expect(paths(listing)).toEqual(['tpl/a.txt']);
    expect(listing.special).toEqual(['tpl/.gitignore']);
  });

  it('refuses a path that passes through a symlinked directory', () => {
    const root = tree({ 'real/tpl/a.txt': 'x' });
    symlinkSync(join(root, 'real'), join(root, 'linked'));
    expect(() => listCopyTree(root, 'linked/tpl')).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
    expect(listCopyTree(root, 'linked').links).toEqual(['linked']);
  });

  it('never takes .git, and refuses a path outside the root', () => {
    const root = tree({ 'tpl/.git/HEAD': 'x', 'tpl/a': 'x' });
    expect(paths(listCopyTree(root, 'tpl'))).toEqual(['tpl/a']);
    expect(() => listCopyTree(root, '../x')).toThrow(/outside/);
  });
});

import { describe, expect, it } from 'vitest';
import type { DirInfo } from './index-file.js';
import { hashObject, MODE_EXEC, MODE_FILE, MODE_LINK, parseTree } from './objects.js';
import { sortByBytes } from './paths.js';
import { applyTrees, buildTrees, type FileEntry } from './tree-builder.js';

const blob = (text: string) => hashObject('blob', Buffer.from(text));
const files = (paths: string[]): FileEntry[] =>
  sortByBytes([...paths]).map((path) => ({
    path,
    mode: path.endsWith('.sh') ? MODE_EXEC : path.startsWith('link') ? MODE_LINK : MODE_FILE,
    oid: blob(path),
  }));

describe('buildTrees()', () => {
  it("orders entries by git's rule (a directory sorts as name/)", () => {
    const built = buildTrees(
      files(['a-b', 'a.b', 'a/x', 'a0', 'a/y.sh', 'link']),
      new Map(),
      new Set(),
    );
    const root = built.created.find((tree) => tree.oid === built.root);
    expect(
      parseTree(root?.content ?? Buffer.alloc(0), built.root).map((entry) => entry.name),
    ).toEqual(['a-b', 'a.b', 'a', 'a0', 'link']);
    // git hash-object -t tree of the same entries (checked by hand against native git once).
    expect(built.updated.get('a')?.count).toBe(2);
    expect(built.updated.get('')?.subdirs).toEqual(['a']);
  });

  it('gives the empty tree for no files', () => {
    expect(buildTrees([], new Map(), new Set()).root).toBe(
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    );
  });

  it('reuses clean directories and matches a full rebuild', () => {
    const before = files(['x/1', 'x/2', 'y/deep/3', 'y/deep/4', 'z']);
    const dirs = new Map<string, DirInfo>();
    applyTrees(dirs, buildTrees(before, new Map(), new Set()));
    const after = files(['x/1', 'x/2', 'y/deep/3', 'y/deep/5', 'z']);
    const incremental = buildTrees(after, dirs, new Set(['', 'y', 'y/deep']));
    const full = buildTrees(after, new Map(), new Set());
    expect(incremental.root).toBe(full.root);
    applyTrees(dirs, incremental);
    expect(dirs).toEqual(full.updated);
    // Only the dirty path was serialised again.
    expect(incremental.created.length).toBe(3);
  });
});

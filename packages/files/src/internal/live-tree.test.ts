import { describe, expect, it } from 'vitest';
import type { TreeListing } from '../unified-file-resolver.js';
import { LiveTree } from './live-tree.js';

const listing = (parts: Partial<TreeListing>): TreeListing => ({
  files: [],
  directories: [],
  specials: [],
  ignoreFiles: {},
  warnings: [],
  ...parts,
});

describe('LiveTree', () => {
  it("gives the listing back in the walk's order: depth first, a directory as its name plus '/'", () => {
    const tree = new LiveTree(
      listing({
        // Out of order on purpose: the tree sorts, as the walk does.
        files: ['b.txt', 'a-b', 'a/z', 'a/b/c', 'pipe'],
        directories: ['a/b', 'a'],
        specials: ['pipe'],
        ignoreFiles: { 'a/.gitignore': 'x\n' },
      }),
    );
    expect(tree.toListing()).toEqual(
      listing({
        // 'a-b' < 'a/' in byte order ('-' is 0x2d, '/' 0x2f).
        files: ['a-b', 'a/b/c', 'a/z', 'b.txt', 'pipe'],
        directories: ['a', 'a/b'],
        specials: ['pipe'],
        ignoreFiles: { 'a/.gitignore': 'x\n' },
      }),
    );
  });

  it('replaces a subtree with its new listing and leaves the rest alone', () => {
    const tree = new LiveTree(
      listing({
        files: ['a/b/old', 'a/keep', 'a/b/deep/old', 'c'],
        directories: ['a', 'a/b', 'a/b/deep'],
        ignoreFiles: { '.gitignore': 'r\n', 'a/b/.gitignore': 'old\n', 'a/.gitignore': 'k\n' },
      }),
    );
    tree.replace(
      ['a/b'],
      listing({
        files: ['a/b/new'],
        directories: ['a/b'],
        ignoreFiles: { 'a/.gitignore': 'k\n' },
      }),
    );
    expect(tree.toListing()).toEqual(
      listing({
        files: ['a/b/new', 'a/keep', 'c'],
        directories: ['a', 'a/b'],
        ignoreFiles: { '.gitignore': 'r\n', 'a/.gitignore': 'k\n' },
      }),
    );
  });

  it('drops a directory that became a file, and a path that is gone', () => {
    const tree = new LiveTree(listing({ files: ['d/x', 'gone', 'kept'], directories: ['d'] }));
    tree.replace(['d', 'gone'], listing({ files: ['d'] }));
    expect(tree.toListing()).toEqual(listing({ files: ['d', 'kept'] }));
  });
});

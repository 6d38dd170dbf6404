import { describe, expect, it } from 'vitest';
import { buildFileTree } from './build-file-tree.js';
import type { FileNode } from './file-node.js';

const stats = (entries: Record<string, number>) =>
  new Map(Object.entries(entries).map(([path, mtimeMs]) => [path, { mtimeMs }]));

const shape = (nodes: FileNode[]): unknown =>
  nodes.map((node) => (node.isDirectory ? { [node.path]: shape(node.children) } : node.path));

describe('buildFileTree()', () => {
  it('nests files under directories built from their paths, in git ls-files order', () => {
    const paths = ['src/b.ts', 'README.md', 'src/a/x.ts', 'src/a.ts', 'Zeta', 'émoji'];
    const tree = buildFileTree(paths, {
      root: '/unused',
      stats: stats(Object.fromEntries(paths.map((path) => [path, 0]))),
    });
    expect(shape(tree)).toEqual([
      'README.md',
      'Zeta',
      { src: ['src/a.ts', { 'src/a': ['src/a/x.ts'] }, 'src/b.ts'] },
      'émoji',
    ]);
  });

  it('fills every FileNode field, giving a directory the newest mtime below it', () => {
    const tree = buildFileTree(['d/a', 'd/e/b'], {
      root: '/unused',
      stats: stats({ 'd/a': Date.UTC(2024, 0, 1), 'd/e/b': Date.UTC(2024, 5, 1) }),
    });
    expect(tree).toEqual([
      {
        name: 'd',
        path: 'd',
        isDirectory: true,
        lastModified: '2024-06-01T00:00:00.000Z',
        children: [
          {
            name: 'a',
            path: 'd/a',
            isDirectory: false,
            children: [],
            lastModified: '2024-01-01T00:00:00.000Z',
          },
          {
            name: 'e',
            path: 'd/e',
            isDirectory: true,
            lastModified: '2024-06-01T00:00:00.000Z',
            children: [
              {
                name: 'b',
                path: 'd/e/b',
                isDirectory: false,
                children: [],
                lastModified: '2024-06-01T00:00:00.000Z',
              },
            ],
          },
        ],
      },
    ]);
  });

  it('merges duplicates and normalises ./ and double slashes', () => {
    const tree = buildFileTree(['./a//b', 'a/b'], { root: '/unused', stats: stats({ 'a/b': 0 }) });
    expect(shape(tree)).toEqual([{ a: ['a/b'] }]);
  });

  it('rejects paths outside the root and a path used as both file and directory', () => {
    const options = { root: '/unused', stats: stats({}) };
    for (const path of ['/etc/x', '../x', 'a/../../x', '.']) {
      expect(() => buildFileTree([path], options)).toThrow(
        expect.objectContaining({ code: 'FILES_PATH_ESCAPES_ROOT' }),
      );
    }
    expect(() =>
      buildFileTree(['a', 'a/b'], { root: '/unused', stats: stats({ a: 0, 'a/b': 0 }) }),
    ).toThrow(expect.objectContaining({ code: 'FILES_INVALID_PATH' }));
  });
});

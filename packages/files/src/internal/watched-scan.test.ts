import { describe, expect, it } from 'vitest';
import type { FileStat } from '../snapshot.js';
import { dirtyRoots, LiveSnapshot } from './watched-scan.js';

const stat = (size: number): FileStat => ({
  kind: 'file',
  size,
  mode: 0o100644,
  ino: 1n,
  mtimeMs: 0,
  mtimeNs: 0n,
  ctimeNs: 0n,
});

describe('dirtyRoots', () => {
  it('keeps only the topmost of nested paths, in git order', () => {
    expect(dirtyRoots(['a/b/c.ts', 'a', 'b/x.ts', 'a/b', 'ab', 'b/x.ts'])).toEqual([
      'a',
      'ab',
      'b/x.ts',
    ]);
  });

  it('does not take a sibling with a common prefix for a child', () => {
    expect(dirtyRoots(['src', 'src-old/a.ts', 'src/a.ts'])).toEqual(['src', 'src-old/a.ts']);
  });

  it('turns a nested .gitignore into its directory and a root one into a full walk', () => {
    expect(dirtyRoots(['a/c/.gitignore', 'a/c/d/x.ts'])).toEqual(['a/c']);
    expect(dirtyRoots(['x.ts', '.gitignore'])).toBeUndefined();
  });

  it('returns nothing for nothing', () => {
    expect(dirtyRoots([])).toEqual([]);
  });
});

describe('LiveSnapshot', () => {
  it('finds the files below a directory only while it has some', () => {
    const live = new LiveSnapshot(
      new Map([
        ['a/x.ts', stat(1)],
        ['a/b/y.ts', stat(2)],
        ['ab.ts', stat(3)],
      ]),
    );
    expect(live.pathsBelow('a').sort()).toEqual(['a/b/y.ts', 'a/x.ts']);
    expect(live.pathsBelow('a/b')).toEqual(['a/b/y.ts']);
    expect(live.pathsBelow('ab.ts')).toEqual([]);
    live.delete('a/b/y.ts');
    expect(live.pathsBelow('a/b')).toEqual([]);
    expect(live.pathsBelow('a')).toEqual(['a/x.ts']);
    live.set('a/b/z/w.ts', stat(4));
    live.set('a/b/z/w.ts', stat(5)); // a rewrite counts once
    live.delete('a/b/z/w.ts');
    expect(live.pathsBelow('a/b')).toEqual([]);
    live.delete('never-there.ts');
    expect(live.pathsBelow('a')).toEqual(['a/x.ts']);
  });
});

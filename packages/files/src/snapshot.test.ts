import { describe, expect, it } from 'vitest';
import { diff, type FileStat } from './snapshot.js';

const stat = (overrides: Partial<FileStat> = {}): FileStat => ({
  kind: 'file',
  size: 1,
  mode: 0o100644,
  ino: 1n,
  mtimeMs: 1,
  mtimeNs: 1_000_000n,
  ctimeNs: 1_000_000n,
  ...overrides,
});

describe('diff()', () => {
  it('reports created, modified and deleted files with both stats, sorted by path', () => {
    const before = new Map([
      ['keep', stat()],
      ['z-gone', stat()],
      ['b-size', stat()],
      ['a-mode', stat()],
    ]);
    const after = new Map([
      ['keep', stat()],
      ['b-size', stat({ size: 2 })],
      ['a-mode', stat({ mode: 0o100755 })],
      ['new', stat()],
    ]);
    const changes = diff(before, after);
    expect(changes.created).toEqual([{ path: 'new', after: stat() }]);
    expect(changes.modified).toEqual([
      { path: 'a-mode', before: stat(), after: stat({ mode: 0o100755 }) },
      { path: 'b-size', before: stat(), after: stat({ size: 2 }) },
    ]);
    expect(changes.deleted).toEqual([{ path: 'z-gone', before: stat() }]);
  });

  it.each([
    ['inode', { ino: 2n }],
    ['mtime', { mtimeNs: 1_000_001n }],
    ['ctime', { ctimeNs: 2_000_000n }],
    ['symlink kind and mode', { kind: 'symlink' as const, mode: 0o120777 }],
  ])('counts a change of %s as a modification', (_name, overrides) => {
    const changes = diff(new Map([['f', stat()]]), new Map([['f', stat(overrides)]]));
    expect(changes.modified.map((change) => change.path)).toEqual(['f']);
  });

  it('compares content hashes only when both sides carry one', () => {
    const hashed = (racyHash: string) => stat({ racyHash });
    const run = (a: FileStat, b: FileStat) =>
      diff(new Map([['f', a]]), new Map([['f', b]])).modified.length;
    expect(run(hashed('x'), hashed('y'))).toBe(1);
    expect(run(hashed('x'), hashed('x'))).toBe(0);
    expect(run(hashed('x'), stat())).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { applyUpdates, diffEntries } from './entry-list.js';
import { type CacheEntry, entryFromTree } from './stat-cache.js';

const entry = (path: string, oid = '1'.repeat(40)): CacheEntry =>
  entryFromTree(path, 0o100644, oid);
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('applyUpdates()', () => {
  it('sets, replaces and removes paths in byte order, reusing the spare arrays', () => {
    const sorted = ['a', 'a-b', 'a/x', 'b', 'é', '😀'].sort(byBytes).map((path) => entry(path));
    const paths = sorted.map((e) => e.path);
    const spare = { sorted: [entry('stale'), entry('stale2')], paths: ['stale', 'stale2'] };
    const replaced = entry('b', '2'.repeat(40));
    const updates = new Map<string, CacheEntry | null>([
      ['a/x', null],
      ['b', replaced],
      ['a.b', entry('a.b')],
      ['\uFFFD', entry('\uFFFD')], // sorts before an astral code point in bytes, not in UTF-16
      ['zz', entry('zz')],
      ['gone', null],
    ]);
    const out = applyUpdates(sorted, paths, updates, spare);
    expect(out.sorted).toBe(spare.sorted);
    expect(out.paths).toEqual(['a', 'a-b', 'a.b', 'b', 'zz', 'é', '\uFFFD', '😀'].sort(byBytes));
    expect(out.sorted.map((e) => e.path)).toEqual(out.paths);
    expect(out.sorted).toContain(replaced);
    // Nothing changed: the very same lists.
    expect(applyUpdates(sorted, paths, new Map()).sorted).toBe(sorted);
  });
});

describe('diffEntries()', () => {
  it('reports added, removed and replaced entries by identity', () => {
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    const b2 = entry('b', '3'.repeat(40));
    const d = entry('d');
    expect(diffEntries([a, b, c], [a, b2, d])).toEqual([
      { path: 'b', before: b, after: b2 },
      { path: 'c', before: c },
      { path: 'd', after: d },
    ]);
  });
});

describe('applyUpdates() with many updates', () => {
  it('gives the same list by merge walk as by binary search', () => {
    const paths = Array.from({ length: 64 }, (_, i) => `d${i % 5}/f${i}`).sort(byBytes);
    const sorted = paths.map((path) => entry(path));
    const few = new Map<string, CacheEntry | null>([[paths[3] as string, null]]);
    const many = new Map<string, CacheEntry | null>(few);
    for (let i = 0; i < 20; i++) many.set(`d${i % 7}/g${i}`, entry(`d${i % 7}/g${i}`));
    for (const path of paths.filter((_, i) => i % 3 === 0)) many.set(path, null);
    const expected = [
      ...paths.filter((p) => !many.has(p)),
      ...[...many.keys()].filter((p) => many.get(p)),
    ].sort(byBytes);
    expect(applyUpdates(sorted, paths, many).paths).toEqual(expected);
    expect(applyUpdates(sorted, paths, few).paths).toEqual(paths.filter((p) => p !== paths[3]));
  });
});

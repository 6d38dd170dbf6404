import { describe, expect, it } from 'vitest';
import type { IndexEntry } from './index-file.js';
import type { Stat } from './io.js';
import { MODE_FILE } from './objects.js';
import { type CacheEntry, entriesFromIndex, entryFromStat, statMatches } from './stat-cache.js';

const NS = 1_000_000_000n;

/** A bigint lstat result of a regular file, as `fs.lstat(path, { bigint: true })` gives. */
function stat(mtimeNs: bigint, ctimeNs = mtimeNs, size = 17n, ino = 42n): Stat {
  return {
    mtimeNs,
    ctimeNs,
    size,
    ino,
    dev: 2049n,
    uid: 0n,
    gid: 0n,
    mode: 0o100644n,
    isFile: () => true,
    isSymbolicLink: () => false,
  } as unknown as Stat;
}

const indexEntry = (mtimeS: number, mtimeN: number): IndexEntry => ({
  path: 'a.txt',
  mode: MODE_FILE,
  oid: '1'.repeat(40),
  ctimeS: mtimeS,
  ctimeN: mtimeN,
  mtimeS,
  mtimeN,
  dev: 2049,
  ino: 42,
  uid: 0,
  gid: 0,
  size: 17,
});

describe('the stat cache', () => {
  const at = 1_764_000_000n * NS + 123_456_789n;

  it('vouches for a file only while every time matches to the nanosecond', () => {
    const entry = entryFromStat('a.txt', stat(at), MODE_FILE, '1'.repeat(40), at + 1n);
    expect(entry.verify).toBe(false);
    expect(statMatches(entry, stat(at), MODE_FILE)).toBe(true);
    expect(statMatches(entry, stat(at + 1n), MODE_FILE)).toBe(false);
    expect(statMatches(entry, stat(at, at - 1n), MODE_FILE)).toBe(false);
    expect(statMatches(entry, stat(at + NS), MODE_FILE)).toBe(false);
    expect(statMatches(entry, stat(at, at, 18n), MODE_FILE)).toBe(false);
    expect(statMatches(entry, stat(at, at, 17n, 43n), MODE_FILE)).toBe(false);
  });

  it('applies the racy rule to entries read from an index, to the nanosecond of its mtime', () => {
    const [seconds, nanos] = [Number(at / NS), Number(at % NS)];
    const entries = entriesFromIndex(
      [
        indexEntry(seconds, nanos - 1),
        indexEntry(seconds, nanos),
        indexEntry(seconds + 1, 0),
        indexEntry(seconds - 1, 999_999_999),
        indexEntry(0, 0),
      ],
      at,
    );
    const older = entries[0] as CacheEntry;
    expect(entries.map((entry) => entry.verify)).toEqual([false, true, true, false, true]);
    expect(statMatches(older, stat(at - 1n), MODE_FILE)).toBe(true);
    expect(statMatches(older, stat(at), MODE_FILE)).toBe(false);
  });
});

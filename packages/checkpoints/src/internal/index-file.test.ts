import { describe, expect, it } from 'vitest';
import { type DirInfo, type IndexEntry, parseIndex, serializeIndex } from './index-file.js';

const entry = (path: string, oid: string, mode = 0o100644): IndexEntry => ({
  path,
  mode,
  oid,
  ctimeS: 1700000000,
  ctimeN: 123,
  mtimeS: 1700000001,
  mtimeN: 456789,
  dev: 2049,
  ino: 42,
  uid: 1000,
  gid: 1000,
  size: 17,
});

describe('serializeIndex() / parseIndex()', () => {
  const entries = [
    entry('a.txt', '1'.repeat(40)),
    entry('dir/b.sh', '2'.repeat(40), 0o100755),
    entry('dir/sub/l', '3'.repeat(40), 0o120000),
  ];
  const dirs = new Map<string, DirInfo>([
    ['', { oid: 'a'.repeat(40), count: 3, subdirs: ['dir'] }],
    ['dir', { oid: 'b'.repeat(40), count: 2, subdirs: ['sub'] }],
    ['dir/sub', { oid: 'c'.repeat(40), count: 1, subdirs: [] }],
  ]);

  it('round-trips entries and the cache tree', () => {
    const parsed = parseIndex(serializeIndex(entries, dirs));
    const strip = ({ record: _record, ...rest }: IndexEntry) => rest;
    expect(parsed?.entries.map(strip)).toEqual(entries.map(strip));
    expect(parsed?.dirs).toEqual(dirs);
  });

  it('pads every entry to 8 bytes with 1-8 NULs, as git does', () => {
    const data = serializeIndex([entry('abcdefgh', '1'.repeat(40))], new Map());
    // 12 header + (62 + 8 name + 2 NUL = 72) + 20 checksum
    expect(data.length).toBe(12 + 72 + 20);
  });

  it('rejects a file whose checksum does not match', () => {
    const data = serializeIndex(entries, dirs);
    data[20] = (data[20] as number) ^ 0xff;
    expect(parseIndex(data)).toBeUndefined();
  });

  it('rejects index version 4 and garbage', () => {
    const data = serializeIndex(entries, dirs);
    data.writeUInt32BE(4, 4);
    expect(parseIndex(data)).toBeUndefined();
    expect(parseIndex(Buffer.from('not an index at all, really not'))).toBeUndefined();
  });

  it('reuses cached entry records when writing again', () => {
    const first = serializeIndex(entries, dirs);
    const reparsed = parseIndex(first)?.entries ?? [];
    expect(serializeIndex(reparsed, dirs).equals(first)).toBe(true);
  });
});

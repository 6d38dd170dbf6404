import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type DirInfo,
  type IndexEntry,
  IndexWriter,
  parseIndex,
  type Splice,
  serializeIndex,
} from './index-file.js';

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

  it('writes the bytes it read back unchanged', () => {
    const first = serializeIndex(entries, dirs);
    const reparsed = parseIndex(first)?.entries ?? [];
    expect(serializeIndex(reparsed, dirs).equals(first)).toBe(true);
  });

  it("says whether the paths are in git's byte order", () => {
    expect(parseIndex(serializeIndex(entries, dirs))?.sorted).toBe(true);
    // 'é' (0xc3 0xa9) sorts after 'z' by bytes, although both are one UTF-16 unit.
    const bytewise = [entry('z', '1'.repeat(40)), entry('é', '2'.repeat(40))];
    expect(parseIndex(serializeIndex(bytewise, new Map()))?.sorted).toBe(true);
    const swapped = [entries[1], entries[0]] as IndexEntry[];
    expect(parseIndex(serializeIndex(swapped, new Map()))?.sorted).toBe(false);
    const twice = [entries[0], entries[0]] as IndexEntry[];
    expect(parseIndex(serializeIndex(twice, new Map()))?.sorted).toBe(false);
    const prefix = [entry('ab', '1'.repeat(40)), entry('a', '2'.repeat(40))];
    expect(parseIndex(serializeIndex(prefix, new Map()))?.sorted).toBe(false);
  });

  it('gives record offsets only for a v2 file, whose records can be copied as they are', () => {
    const data = serializeIndex(entries, dirs);
    const parsed = parseIndex(data);
    expect(parsed?.offsets?.length).toBe(entries.length + 1);
    expect(parsed?.offsets?.[0]).toBe(12);
    data.writeUInt32BE(3, 4); // v3 with no extended entry is still readable
    const rehashed = Buffer.concat([
      data.subarray(0, data.length - 20),
      createHash('sha1')
        .update(data.subarray(0, data.length - 20))
        .digest(),
    ]);
    const v3 = parseIndex(rehashed);
    expect(v3?.entries.length).toBe(entries.length);
    expect(v3?.offsets).toBeUndefined();
  });
});

describe('IndexWriter', () => {
  const oid = (n: number) => n.toString(16).padStart(40, '0');
  const dirs = new Map<string, DirInfo>([['', { oid: 'a'.repeat(40), count: 0, subdirs: [] }]]);

  it('patches its last file with splices to the bytes of a full write', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const writer = new IndexWriter();
    let list = Array.from({ length: 200 }, (_, i) => entry(`d${i % 7}/f${i}`, oid(i))).sort(
      (a, b) => (a.path < b.path ? -1 : 1),
    );
    writer.write(list, 0, dirs);
    for (let version = 1; version < 40; version++) {
      // Random removals, replacements and insertions, each at its place in the old list.
      const splices: Splice[] = [];
      const next: IndexEntry[] = [];
      for (let at = 0; at <= list.length; at++) {
        const roll = random();
        if (roll < 0.05) {
          const path = `${at < list.length ? (list[at] as IndexEntry).path : 'zz'}-new${version}`;
          const added = entry(path.replace(/-new\d+$/, `+${version}`), oid(version * 1000 + at));
          // Only if it sorts between its neighbours (names ending in '+n' sort before '/').
          const before = next[next.length - 1]?.path ?? '';
          const after = list[at]?.path;
          if (before < added.path && (after === undefined || added.path < after)) {
            splices.push({ at, remove: 0, entry: added });
            next.push(added);
          }
        }
        if (at === list.length) break;
        const current = list[at] as IndexEntry;
        if (roll > 0.97) splices.push({ at, remove: 1 });
        else if (roll > 0.94) {
          const changed = { ...entry(current.path, oid(version * 7 + at)), size: version };
          splices.push({ at, remove: 1, entry: changed });
          next.push(changed);
        } else next.push(current);
      }
      const patched = Buffer.from(
        writer.write(next, version, dirs, { from: version - 1, splices }),
      );
      expect(patched.equals(serializeIndex(next, dirs))).toBe(true);
      expect(parseIndex(patched)?.entries.map((e) => e.path)).toEqual(next.map((e) => e.path));
      list = next;
    }
  });

  it('patches a file it adopted, then keeps writing into that buffer correctly', () => {
    const list = Array.from({ length: 50 }, (_, i) =>
      entry(`f${String(i).padStart(3, '0')}`, oid(i)),
    );
    // Read "from disk": its own bytes, which the writer then owns.
    const onDisk = Buffer.from(serializeIndex(list, dirs));
    const parsed = parseIndex(onDisk);
    const writer = new IndexWriter();
    writer.adopt(onDisk, parsed?.offsets as Uint32Array, 0);
    let current = parsed?.entries as IndexEntry[];
    for (let version = 1; version <= 6; version++) {
      // Replace one entry with a longer path and drop another: every later record moves.
      const at = version * 5;
      const replaced = entry(`${(current[at] as IndexEntry).path}-v${version}`, oid(900 + version));
      const next = [...current.slice(0, at), replaced, ...current.slice(at + 1)];
      next.splice(at + 2, 1);
      const splices: Splice[] = [
        { at, remove: 1, entry: replaced },
        { at: at + 2, remove: 1 },
      ];
      const data = Buffer.from(writer.write(next, version, dirs, { from: version - 1, splices }));
      expect(data.equals(serializeIndex(next, dirs))).toBe(true);
      current = next;
    }
  });

  it('writes the whole file when the edit is from a list it did not write', () => {
    const writer = new IndexWriter();
    const first = [entry('a', '1'.repeat(40)), entry('b', '2'.repeat(40))];
    writer.write(first, 3, dirs);
    const next = [...first, entry('z', '4'.repeat(40))];
    const data = writer.write(next, 5, dirs, { from: 4, splices: [] });
    expect(Buffer.from(data).equals(serializeIndex(next, dirs))).toBe(true);
  });
});

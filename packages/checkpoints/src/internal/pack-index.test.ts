import { describe, expect, it } from 'vitest';
import { decodePackHeader, encodePackHeader, PackIndex } from './pack-index.js';
import { buildIndex } from './pack-writer.js';

describe('pack headers', () => {
  it('round-trips type and size across varint boundaries', () => {
    for (const size of [0, 15, 16, 127, 2048, 1_000_000, 2 ** 33 + 5]) {
      for (const type of [1, 2, 3, 4]) {
        const decoded = decodePackHeader(encodePackHeader(type, size));
        expect([decoded.type, decoded.size]).toEqual([type, size]);
      }
    }
  });
});

describe('buildIndex() / PackIndex', () => {
  it('finds every object and its extent, including 64-bit offsets', () => {
    const items = [
      { oid: 'ff'.repeat(20), offset: 12, crc: 1 },
      { oid: '00'.repeat(20), offset: 100, crc: 2 },
      { oid: '7a'.repeat(20), offset: 2 ** 32 + 10, crc: 3 },
      { oid: '7b'.repeat(20), offset: 5000, crc: 4 },
    ];
    const data = buildIndex(items, Buffer.alloc(20, 9));
    const index = PackIndex.parse('pack-x.pack', data, 2 ** 32 + 500) as PackIndex;
    expect(index.count).toBe(4);
    for (const item of items) {
      const at = index.find(item.oid);
      expect(index.oidAt(at)).toBe(item.oid);
      expect(index.offsetAt(at)).toBe(item.offset);
    }
    expect(index.find('01'.repeat(20))).toBe(-1);
    expect(index.endOf(12)).toBe(100);
    expect(index.endOf(5000)).toBe(2 ** 32 + 10);
    expect(index.endOf(2 ** 32 + 10)).toBe(2 ** 32 + 480);
  });

  it('rejects truncated or foreign index files', () => {
    expect(PackIndex.parse('x', Buffer.alloc(100), 0)).toBeUndefined();
    const data = buildIndex([{ oid: 'ab'.repeat(20), offset: 12, crc: 0 }], Buffer.alloc(20));
    expect(PackIndex.parse('x', data.subarray(0, data.length - 30), 100)).toBeUndefined();
  });
});

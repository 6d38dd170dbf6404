import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('cursor', () => {
  it('round-trips a position through an opaque jc1. string', () => {
    const position = { line: 1_000_001, offset: 987_654_321, epoch: '0a1b2c3d4e5f6789' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^jc1\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['another format', 'abc'],
    ['bad base64', 'jc1.@@'],
    ['too few parts', `jc1.${Buffer.from('1:2:3').toString('base64url')}`],
    ['a wrong checksum', `jc1.${Buffer.from('1:2::deadbeef').toString('base64url')}`],
    ['a negative line', `jc1.${Buffer.from('-1:2::00000000').toString('base64url')}`],
  ])('rejects %s with JOURNAL_BAD_CURSOR', (_, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(
      expect.objectContaining({ code: 'JOURNAL_BAD_CURSOR' }),
    );
  });
});

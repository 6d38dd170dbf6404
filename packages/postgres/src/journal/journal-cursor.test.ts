import { describe, expect, it } from 'vitest';
import { decodeJournalCursor, encodeJournalCursor } from './journal-cursor.js';

const bad = { code: 'JOURNAL_BAD_CURSOR' };

describe('journal cursors', () => {
  it('round-trips a position signed for one execution', () => {
    for (const seq of [0, 1, 36, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      expect(decodeJournalCursor('key', 'e1', encodeJournalCursor('key', 'e1', seq))).toBe(seq);
    }
  });

  it('refuses a cursor of another execution or another key', () => {
    const cursor = encodeJournalCursor('key', 'e1', 5);
    expect(() => decodeJournalCursor('key', 'e2', cursor)).toThrow(expect.objectContaining(bad));
    expect(() => decodeJournalCursor('other', 'e1', cursor)).toThrow(expect.objectContaining(bad));
  });

  it.each([
    'jc1.MTox',
    'jp1.',
    'jp1.!!',
    `jp1.${Buffer.from('zzzzzzzzzzzz:abc').toString('base64url')}`,
    `jp1.${Buffer.from('-1:abc').toString('base64url')}`,
  ])('refuses the malformed cursor %j', (cursor) => {
    expect(() => decodeJournalCursor('key', 'e1', cursor)).toThrow(expect.objectContaining(bad));
  });

  it('refuses a cursor whose position was edited', () => {
    const body = Buffer.from(encodeJournalCursor('key', 'e1', 1).slice(4), 'base64url').toString();
    const edited = `jp1.${Buffer.from(body.replace(/^1:/, '2:')).toString('base64url')}`;
    expect(() => decodeJournalCursor('key', 'e1', edited)).toThrow(expect.objectContaining(bad));
  });
});

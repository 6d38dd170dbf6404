import { describe, expect, it } from 'vitest';
import { TrackedPatterns } from './tracked-patterns.js';

describe('TrackedPatterns', () => {
  describe('add()', () => {
    it('accumulates across codons, deduplicated in first-seen order', () => {
      const tracked = new TrackedPatterns();
      expect(tracked.add(0, ['*.ts', 'src/**'])).toEqual(['*.ts', 'src/**']);
      expect(tracked.add(1, ['*.md', './*.ts', 'src//**'])).toEqual(['*.ts', 'src/**', '*.md']);
      expect(tracked.add(1, ['!dist/'])).toEqual(['*.ts', 'src/**', '*.md', '!dist/**']);
      expect(tracked.current()).toEqual(['*.ts', 'src/**', '*.md', '!dist/**']);
    });

    it('accepts gaps between codon indexes (codons that track nothing)', () => {
      const tracked = new TrackedPatterns();
      tracked.add(0, ['a']);
      expect(tracked.add(5, ['b'])).toEqual(['a', 'b']);
    });

    it('rejects an index lower than one already added, or not a natural number', () => {
      const tracked = new TrackedPatterns();
      tracked.add(2, ['a']);
      for (const index of [1, -1, 2.5, Number.NaN]) {
        expect(() => tracked.add(index, ['b'])).toThrow(
          expect.objectContaining({ code: 'FILES_INVALID_CODON_INDEX' }),
        );
      }
    });

    it('rejects invalid patterns without changing anything', () => {
      const tracked = new TrackedPatterns();
      tracked.add(0, ['a']);
      expect(() => tracked.add(1, ['b', ''])).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_PATTERN' }),
      );
      expect(tracked.current()).toEqual(['a']);
    });
  });

  describe('at() and resetTo()', () => {
    it('returns and restores the patterns as they were after a codon', () => {
      const tracked = new TrackedPatterns();
      tracked.add(0, ['a']);
      tracked.add(1, ['b', 'a']);
      tracked.add(2, ['c']);
      expect(tracked.at(0)).toEqual(['a']);
      expect(tracked.at(1)).toEqual(['a', 'b']);
      expect(tracked.resetTo(1)).toEqual(['a', 'b']);
      expect(tracked.current()).toEqual(['a', 'b']);
      expect(tracked.add(2, ['d'])).toEqual(['a', 'b', 'd']);
      expect(tracked.resetTo(-1)).toEqual([]);
    });

    it('rejects an index below -1', () => {
      expect(() => new TrackedPatterns().resetTo(-2)).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_CODON_INDEX' }),
      );
    });
  });

  describe('snapshot()', () => {
    it('round-trips through JSON and stays independent of the original', () => {
      const tracked = new TrackedPatterns();
      tracked.add(0, ['a']);
      tracked.add(3, ['b']);
      const copy = new TrackedPatterns(JSON.parse(JSON.stringify(tracked.snapshot())));
      tracked.add(4, ['c']);
      expect(copy.current()).toEqual(['a', 'b']);
      expect(copy.at(0)).toEqual(['a']);
      expect(copy.snapshot()).toEqual({
        codons: [
          { codonIndex: 0, patterns: ['a'] },
          { codonIndex: 3, patterns: ['b'] },
        ],
      });
    });
  });
});

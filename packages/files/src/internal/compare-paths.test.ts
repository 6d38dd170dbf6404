import { seededRandom } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { compareUtf8, sortPaths } from './compare-paths.js';

const ALPHABET = ['a', 'B', '/', '.', '-', 'é', '日', '\uffef', '\ue000', '😀', '𝄞', ' ', '~'];

function randomStrings(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(random() * 6);
    return Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
  });
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('compareUtf8()', () => {
  it('orders like a byte comparison of the UTF-8 encodings', () => {
    const strings = randomStrings(7, 400);
    for (let i = 1; i < strings.length; i++) {
      const a = strings[i - 1] as string;
      const b = strings[i] as string;
      expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(byBytes(a, b)));
    }
  });

  it('puts a character outside the BMP after U+E000-FFFF, unlike the default sort', () => {
    expect(compareUtf8('😀', '\uffef')).toBeGreaterThan(0);
    expect(['😀', '\uffef'].sort()).toEqual(['😀', '\uffef']);
  });
});

describe('sortPaths()', () => {
  it('sorts in byte order with and without astral characters', () => {
    for (const seed of [1, 2, 3]) {
      const strings = randomStrings(seed, 200);
      expect(sortPaths([...strings])).toEqual([...strings].sort(byBytes));
      const bmpOnly = strings.filter((s) => !/[\ud800-\udfff]/.test(s));
      expect(sortPaths([...bmpOnly])).toEqual([...bmpOnly].sort(byBytes));
    }
  });
});

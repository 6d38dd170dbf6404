import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { computeBundleHash } from './lock.js';

describe('canonicalJson()', () => {
  it('sorts keys by UTF-8 bytes, drops undefined, refuses what it cannot spell', () => {
    expect(
      canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, '\u{1F600}': 0, '\uFFFF': 1 }),
    ).toBe('{"a":[true,null,"x"],"b":1,"\uFFFF":1,"\u{1F600}":0}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson([undefined])).toThrow();
  });

  it('hashes a bundle from its files alone, whatever the key order', () => {
    const a = computeBundleHash(
      {
        'b.md': { mode: '644', sha256: 'a'.repeat(64) },
        'a.md': { mode: '755', sha256: 'b'.repeat(64) },
      },
      { min: '0.11.0' },
    );
    const b = computeBundleHash(
      {
        'a.md': { mode: '755', sha256: 'b'.repeat(64) },
        'b.md': { mode: '644', sha256: 'a'.repeat(64) },
      },
      { min: '0.11.0' },
    );
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

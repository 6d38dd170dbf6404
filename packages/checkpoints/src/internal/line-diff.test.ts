import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff.js';

/** Rebuilds `b` from `a` and the runs; also checks runs tile both inputs in order. */
function apply(a: string[], b: string[], runs: ReturnType<typeof diffLines>): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (const run of runs) {
    if (run.kind === 'equal') {
      expect([run.oldStart, run.newStart]).toEqual([i, j]);
      for (let n = 0; n < run.length; n++) expect(a[i + n]).toBe(b[j + n]);
      out.push(...a.slice(i, i + run.length));
      i += run.length;
      j += run.length;
    } else if (run.kind === 'delete') {
      expect(run.oldStart).toBe(i);
      i += run.length;
    } else {
      expect(run.newStart).toBe(j);
      out.push(...b.slice(j, j + run.length));
      j += run.length;
    }
  }
  expect([i, j]).toEqual([a.length, b.length]);
  return out;
}

describe('diffLines()', () => {
  it('finds the minimal script for a one-line change', () => {
    const runs = diffLines(['a', 'b', 'c'], ['a', 'B', 'c']);
    expect(runs.map((run) => [run.kind, run.length])).toEqual([
      ['equal', 1],
      ['delete', 1],
      ['insert', 1],
      ['equal', 1],
    ]);
  });

  it('produces a valid edit script for random inputs', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(random() * 40) }, () =>
        String(Math.floor(random() * 6)),
      );
      const b = Array.from({ length: Math.floor(random() * 40) }, () =>
        String(Math.floor(random() * 6)),
      );
      expect(apply(a, b, diffLines(a, b))).toEqual(b);
    }
  });

  it('stays correct when the edit distance exceeds its search bound', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`);
    expect(apply(a, b, diffLines(a, b))).toEqual(b);
  });
});

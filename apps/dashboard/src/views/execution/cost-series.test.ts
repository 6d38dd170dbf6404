import { describe, expect, it } from 'vitest';
import { bar, minute } from '../timeline/test-bars.js';
import { cumulativeCost, sharesOf } from './cost-series.js';

describe('sharesOf()', () => {
  it('sorts biggest first and scales bars to the biggest', () => {
    const rows = sharesOf([{ c: 1 }, { c: 4 }, { c: 2 }], (x) => x.c);
    expect(rows.map((r) => [r.value, r.percent])).toEqual([
      [4, 100],
      [2, 50],
      [1, 25],
    ]);
  });
  it('gives zero-width bars when everything is free', () => {
    expect(sharesOf([{ c: 0 }], (x) => x.c)[0]?.percent).toBe(0);
  });
});

describe('cumulativeCost()', () => {
  it('sums costs in end-time order, skipping running bars', () => {
    const bars = [
      bar('b', 2, 5, { costUsd: 0.2 }),
      bar('a', 0, 1, { costUsd: 0.1 }),
      bar('c', 5, undefined, { costUsd: 9 }),
    ];
    const [xs, ys] = cumulativeCost(bars);
    expect(xs).toEqual([minute(1) / 1000, minute(5) / 1000]);
    expect(ys[0]).toBeCloseTo(0.1);
    expect(ys[1]).toBeCloseTo(0.3);
  });
  it('merges bars ending at the same second into one point', () => {
    const [xs, ys] = cumulativeCost([
      bar('a', 0, 1, { costUsd: 1 }),
      bar('b', 0, 1, { costUsd: 2 }),
    ]);
    expect(xs).toHaveLength(1);
    expect(ys).toEqual([3]);
  });
});

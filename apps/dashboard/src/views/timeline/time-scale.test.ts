import { describe, expect, it } from 'vitest';
import { BREAK_PX, buildTimeScale, mergeIntervals, timeTicks } from './time-scale.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('mergeIntervals()', () => {
  it('merges overlapping and touching intervals and sorts them', () => {
    expect(
      mergeIntervals([
        [10, 20],
        [0, 5],
        [15, 30],
        [30, 31],
      ]),
    ).toEqual([
      [0, 5],
      [10, 31],
    ]);
  });
  it('drops non-finite intervals', () => {
    expect(mergeIntervals([[Number.NaN, 3]])).toEqual([]);
  });
});

describe('buildTimeScale()', () => {
  it('maps a single busy span linearly over the width', () => {
    const scale = buildTimeScale([[0, 10 * MIN]], 1000);
    expect(scale.toX(0)).toBe(0);
    expect(scale.toX(5 * MIN)).toBeCloseTo(500);
    expect(scale.toX(10 * MIN)).toBeCloseTo(1000);
    expect(scale.pieces.every((p) => !p.collapsed)).toBe(true);
  });

  it('keeps a short gap to scale', () => {
    const scale = buildTimeScale(
      [
        [0, 10 * MIN],
        [11 * MIN, 20 * MIN],
      ],
      2000,
    );
    expect(scale.pieces.some((p) => p.collapsed)).toBe(false);
    expect(scale.toX(10.5 * MIN)).toBeCloseTo(1050);
  });

  it('collapses a long idle gap into a fixed-width break', () => {
    const scale = buildTimeScale(
      [
        [0, 10 * MIN],
        [20 * HOUR, 20 * HOUR + 10 * MIN],
      ],
      1000 + BREAK_PX,
    );
    const gap = scale.pieces.find((p) => p.collapsed);
    expect(gap).toBeDefined();
    expect((gap?.x1 ?? 0) - (gap?.x0 ?? 0)).toBeCloseTo(BREAK_PX);
    // Both busy spans get the same width: the gap no longer squeezes them.
    expect(scale.toX(10 * MIN)).toBeCloseTo(500);
    expect(scale.toX(20 * HOUR + 10 * MIN) - scale.toX(20 * HOUR)).toBeCloseTo(500);
  });

  it('is monotonic across pieces', () => {
    const scale = buildTimeScale(
      [
        [0, MIN],
        [3 * HOUR, 3 * HOUR + MIN],
        [3 * HOUR + 2 * MIN, 3 * HOUR + 5 * MIN],
      ],
      800,
    );
    let last = -1;
    for (let t = 0; t <= 3 * HOUR + 5 * MIN; t += 37_000) {
      const x = scale.toX(t);
      expect(x).toBeGreaterThanOrEqual(last);
      last = x;
    }
  });

  it('clamps times outside the range to the edges', () => {
    const scale = buildTimeScale([[1000, 2000]], 100);
    expect(scale.toX(0)).toBe(0);
    expect(scale.toX(5000)).toBeCloseTo(100);
  });

  it('still gives a usable scale with no intervals', () => {
    const scale = buildTimeScale([], 300);
    expect(scale.width).toBeCloseTo(300);
  });
});

describe('timeTicks()', () => {
  it('spaces ticks at least the minimum gap apart on round times', () => {
    const start = Date.UTC(2026, 0, 1, 12, 0, 7);
    const scale = buildTimeScale([[start, start + 30 * MIN]], 900);
    const ticks = timeTicks(scale, 90);
    expect(ticks.length).toBeGreaterThan(3);
    for (let i = 1; i < ticks.length; i++) {
      expect((ticks[i]?.x ?? 0) - (ticks[i - 1]?.x ?? 0)).toBeGreaterThanOrEqual(90);
    }
    for (const tick of ticks) expect(tick.t % 60_000).toBe(0);
  });
  it('labels with seconds only when the step is under a minute', () => {
    const scale = buildTimeScale([[0, 20_000]], 1000);
    expect(timeTicks(scale).every((tick) => tick.withSeconds)).toBe(true);
  });
  it('marks where work resumes after a collapsed gap and keeps labels clear of the break', () => {
    const scale = buildTimeScale(
      [
        [0, 10 * MIN],
        [20 * HOUR, 20 * HOUR + 10 * MIN],
      ],
      1000,
    );
    const gap = scale.pieces.find((p) => p.collapsed);
    const ticks = timeTicks(scale, 90);
    expect(ticks.some((tick) => tick.t === 20 * HOUR && tick.withSeconds)).toBe(true);
    expect(
      ticks.every((tick) => tick.x >= (gap?.x1 ?? 0) - 0.001 || tick.x + 56 <= (gap?.x0 ?? 0)),
    ).toBe(true);
  });
});

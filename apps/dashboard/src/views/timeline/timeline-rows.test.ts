import { describe, expect, it } from 'vitest';
import { bar, minute } from './test-bars.js';
import { buildTimeScale } from './time-scale.js';
import {
  barIntervals,
  baseCodonId,
  MIN_BAR_PX,
  placeBars,
  runStarts,
  timelineRows,
} from './timeline-rows.js';

describe('baseCodonId()', () => {
  it('strips the iteration suffix of loop codons only', () => {
    expect(baseCodonId({ codonId: 'review#3', loop: { loopId: 'l', iteration: 3 } })).toBe(
      'review',
    );
    expect(baseCodonId({ codonId: 'odd#3' })).toBe('odd#3');
  });
});

describe('timelineRows()', () => {
  it('gives one row per codon id in order of first start, retries on the same row', () => {
    const bars = [
      bar('write', 5, 8),
      bar('explore', 0, 4),
      bar('write', 9, 12, { attempt: 2, runId: 'run-2' }),
    ];
    const rows = timelineRows(bars);
    expect(rows.map((r) => r.key)).toEqual(['codon:explore', 'codon:write']);
    expect(rows[1]?.barIndexes).toEqual([0, 2]);
  });

  it('groups loop iterations under a loop header, one row per loop codon', () => {
    const bars = [
      bar('plan', 0, 1),
      bar('review#0', 1, 2, { loop: { loopId: 'polish', iteration: 0 } }),
      bar('fix#0', 2, 3, { loop: { loopId: 'polish', iteration: 0 } }),
      bar('review#1', 3, 4, { loop: { loopId: 'polish', iteration: 1 } }),
      bar('fix#1', 4, 5, { loop: { loopId: 'polish', iteration: 1 } }),
      bar('ship', 6, 7),
    ];
    const rows = timelineRows(bars, [{ loopId: 'polish', iterations: 2 }]);
    expect(rows.map((r) => `${r.kind}:${r.label}:${r.nested}`)).toEqual([
      'codon:plan:false',
      'loop:loop polish · 2 iterations:false',
      'codon:review#0:true',
      'codon:fix#0:true',
      'codon:ship:false',
    ]);
    expect(rows[2]?.codonId).toBe('review');
    expect(rows[2]?.barIndexes).toEqual([1, 3]);
    expect(rows[1]?.barIndexes).toEqual([1, 2, 3, 4]);
  });

  it('handles 1,000 bars in a few rows', () => {
    const bars = Array.from({ length: 1000 }, (_, i) =>
      bar(`c${i % 10}#${Math.floor(i / 10)}`, i, i + 0.9, {
        loop: { loopId: 'big', iteration: Math.floor(i / 10) },
      }),
    );
    const rows = timelineRows(bars);
    expect(rows).toHaveLength(11);
    expect(rows.slice(1).reduce((n, r) => n + r.barIndexes.length, 0)).toBe(1000);
  });
});

describe('placeBars()', () => {
  it('places bars by time on their row and runs a running bar up to now', () => {
    const bars = [bar('a', 0, 5), bar('b', 5, undefined)];
    const rows = timelineRows(bars);
    const now = minute(10);
    const scale = buildTimeScale(barIntervals(bars, now), 1000);
    const placed = placeBars(rows, bars, scale, now).bars;
    expect(placed[0]).toMatchObject({ row: 0, x: 0, running: false });
    expect(placed[0]?.width).toBeCloseTo(500);
    expect(placed[1]).toMatchObject({ row: 1, running: true });
    expect(placed[1]?.x).toBeCloseTo(500);
    expect(placed[1]?.width).toBeCloseTo(500);
  });

  it('widens an instant bar to the minimum width', () => {
    const bars = [bar('a', 0, 10), bar('b', 3, 3)];
    const scale = buildTimeScale(barIntervals(bars, 0), 500);
    const placed = placeBars(timelineRows(bars), bars, scale, 0).bars;
    expect(placed[1]?.width).toBe(MIN_BAR_PX);
  });

  it('spans each loop iteration on the loop row', () => {
    const bars = [
      bar('r#0', 0, 1, { loop: { loopId: 'l', iteration: 0 } }),
      bar('f#0', 1, 2, { loop: { loopId: 'l', iteration: 0 } }),
      bar('r#1', 2, 4, { loop: { loopId: 'l', iteration: 1 } }),
    ];
    const scale = buildTimeScale(barIntervals(bars, 0), 400);
    const { iterations } = placeBars(timelineRows(bars), bars, scale, 0);
    expect(iterations.map((s) => [s.iteration, Math.round(s.x), Math.round(s.width)])).toEqual([
      [0, 0, 200],
      [1, 200, 200],
    ]);
  });
});

describe('placeBars() with re-run iterations', () => {
  it('keeps an iteration re-run by a later run apart from the first one', () => {
    const bars = [
      bar('r#0', 0, 1, { loop: { loopId: 'l', iteration: 0 } }),
      bar('r#1', 1, 2, { loop: { loopId: 'l', iteration: 1 } }),
      bar('r#1', 2.5, 3.5, { runId: 'run-2', loop: { loopId: 'l', iteration: 1 } }),
    ];
    const scale = buildTimeScale(barIntervals(bars, 0), 350);
    const { iterations } = placeBars(timelineRows(bars), bars, scale, 0);
    expect(iterations.map((s) => [s.iteration, Math.round(s.x), Math.round(s.width)])).toEqual([
      [0, 0, 100],
      [1, 100, 100],
      [1, 250, 100],
    ]);
  });
});

describe('runStarts()', () => {
  it('lists where later runs begin', () => {
    const bars = [bar('a', 0, 1), bar('b', 1, 2), bar('a', 5, 6, { runId: 'run-2' })];
    expect(runStarts(bars)).toEqual([{ runId: 'run-2', start: minute(5) }]);
  });
});

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

describe('a parallel block on the timeline', () => {
  const left = { blockId: 'review', role: 'branch', branchId: 'left' } as const;
  const right = { blockId: 'review', role: 'branch', branchId: 'right' } as const;
  // plan, then branches left (style, then lint#0 of a loop) and right (tests) at once, the
  // resolver, the merge, then ship.
  const parallelBars = () => [
    bar('plan', 0, 1),
    bar('style', 1, 3, { parallel: left }),
    bar('tests', 1, 4, { parallel: right }),
    bar('lint#0', 3, 5, { parallel: left, loop: { loopId: 'polish', iteration: 0 } }),
    bar('fix', 5, 6, { parallel: { blockId: 'review', role: 'resolver' }, name: 'Fix' }),
    bar('review', 6, 6, { parallel: { blockId: 'review', role: 'merge' }, name: 'Review' }),
    bar('ship', 6, 7),
  ];

  it('draws a header, one lane per branch with all its codons, the resolver row, then the rest', () => {
    const rows = timelineRows(parallelBars(), [{ loopId: 'polish', iterations: 1 }]);
    expect(rows.map((r) => `${r.kind}:${r.label}:${r.nested}`)).toEqual([
      'codon:plan:false',
      'block:parallel review:false',
      'branch:branch left:true',
      'branch:branch right:true',
      'codon:Fix (resolver):true',
      'codon:ship:false',
    ]);
    expect(rows[1]?.barIndexes).toEqual([5]);
    expect(rows[2]).toMatchObject({ blockId: 'review', branchId: 'left', barIndexes: [1, 3] });
    expect(rows[3]?.barIndexes).toEqual([2]);
  });

  it("orders a block's lanes as the plan lists its branches, whichever started first", () => {
    const bars = [
      bar('tests', 1, 4, { parallel: right }),
      bar('fix', 5, 6, { parallel: { blockId: 'review', role: 'resolver' } }),
      bar('style', 2, 3, { parallel: left }),
    ];
    const plan = [{ blockId: 'review', branches: ['left', 'right'] }];
    expect(timelineRows(bars, [], plan).map((r) => r.key)).toEqual([
      'block:review',
      'branch:review/left',
      'branch:review/right',
      'resolver:review/fix',
    ]);
    // Without the plan's order: order of first start.
    expect(timelineRows(bars).map((r) => r.key)[1]).toBe('branch:review/right');
  });

  it('keeps two blocks apart, and a block whose merge has not run yet has an empty header', () => {
    const bars = [
      bar('a', 0, 1, { parallel: left }),
      bar('b', 0, 1, { parallel: { blockId: 'second', role: 'branch', branchId: 'left' } }),
    ];
    expect(timelineRows(bars).map((r) => `${r.key}:${r.barIndexes.join(',')}`)).toEqual([
      'block:review:',
      'branch:review/left:0',
      'block:second:',
      'branch:second/left:1',
    ]);
  });

  it("places concurrent branches' bars side by side in time and the merge as a marker", () => {
    const bars = parallelBars();
    const rows = timelineRows(bars);
    const scale = buildTimeScale(barIntervals(bars, 0), 700);
    const { bars: placed, merges } = placeBars(rows, bars, scale, 0);
    const at = (index: number) => placed.find((p) => p.index === index);
    // style and tests start together on rows of their own.
    expect(at(1)?.row).toBe(2);
    expect(at(2)?.row).toBe(3);
    expect(Math.round(at(1)?.x ?? -1)).toBe(Math.round(at(2)?.x ?? -2));
    expect(placed.some((p) => p.index === 5)).toBe(false);
    expect(merges).toHaveLength(1);
    expect(merges[0]).toMatchObject({ index: 5, row: 1, lanes: 3 });
    expect(Math.round(merges[0]?.x ?? -1)).toBe(600);
  });
});

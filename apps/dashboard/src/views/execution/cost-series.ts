/** Chart data for the execution's costs: sorted bar lists and the cumulative cost over time. */
import type { CodonBar } from '../../api/types.js';

export interface ShareRow<T> {
  item: T;
  value: number;
  /** Width of its bar, 0–100, relative to the largest value (the largest is 100). */
  percent: number;
}

/** Sorted biggest first, with bar widths relative to the biggest. */
export function sharesOf<T>(items: readonly T[], measure: (item: T) => number): ShareRow<T>[] {
  const rows = items
    .map((item) => ({ item, value: Math.max(0, measure(item)) }))
    .sort((a, b) => b.value - a.value);
  const max = rows[0]?.value ?? 0;
  return rows.map((row) => ({ ...row, percent: max > 0 ? (row.value / max) * 100 : 0 }));
}

/**
 * The execution's cumulative cost at the end of each codon execution, for a uPlot line: x in unix
 * seconds (uPlot's time unit), y in USD. Running bars have not spent their cost yet: left out.
 */
export function cumulativeCost(bars: readonly CodonBar[]): [number[], number[]] {
  const ends = bars
    .filter((bar) => bar.endTime !== undefined)
    .map((bar) => ({ t: Date.parse(bar.endTime as string) / 1000, usd: bar.costUsd }))
    .filter((point) => Number.isFinite(point.t))
    .sort((a, b) => a.t - b.t);
  const xs: number[] = [];
  const ys: number[] = [];
  let total = 0;
  for (const point of ends) {
    total += point.usd;
    if (xs.length > 0 && xs[xs.length - 1] === point.t) ys[ys.length - 1] = total;
    else {
      xs.push(point.t);
      ys.push(total);
    }
  }
  return [xs, ys];
}

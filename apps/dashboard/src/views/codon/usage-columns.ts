/** The codon's `usage` points as uPlot columns. */
import type { CodonDetail } from '../../api/types.js';

/** uPlot's columns: unix seconds, input tokens, output tokens, USD. */
export function usageColumns(
  usage: CodonDetail['usage'],
): [number[], number[], number[], number[]] {
  const points = usage
    .map((point) => ({ ...point, s: Date.parse(point.t) / 1000 }))
    .filter((point) => Number.isFinite(point.s))
    .sort((a, b) => a.s - b.s);
  return [
    points.map((p) => p.s),
    points.map((p) => p.input),
    points.map((p) => p.output),
    points.map((p) => p.costUsd),
  ];
}

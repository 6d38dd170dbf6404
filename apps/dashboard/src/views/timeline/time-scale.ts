/**
 * The timeline's x axis: time → pixels, with long idle gaps collapsed. An execution that was
 * rolled back and continued the next morning would otherwise squeeze all its codons into two
 * slivers at the edges; collapsed gaps get a fixed-width break marker instead.
 */

/** One piece of the axis: real time [start, end] drawn over pixels [x0, x1]. */
export interface ScalePiece {
  start: number;
  end: number;
  x0: number;
  x1: number;
  /** A collapsed idle gap (drawn as a break, not to scale). */
  collapsed: boolean;
}

export interface TimeScale {
  pieces: ScalePiece[];
  start: number;
  end: number;
  width: number;
  /** Pixels per ms on the pieces drawn to scale. */
  pxPerMs: number;
  toX: (t: number) => number;
}

/** Width of a collapsed gap's break marker. */
export const BREAK_PX = 28;
/** A gap is collapsed when it is longer than this, and longer than a fifth of the busy time. */
const MIN_COLLAPSED_GAP_MS = 60_000;

/** Sorted, merged busy intervals. */
export function mergeIntervals(intervals: readonly [number, number][]): [number, number][] {
  const sorted = intervals
    .filter(([s, e]) => Number.isFinite(s) && Number.isFinite(e))
    .map(([s, e]): [number, number] => [s, Math.max(s, e)])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

export function buildTimeScale(intervals: readonly [number, number][], width: number): TimeScale {
  const spans = mergeIntervals(intervals);
  if (spans.length === 0) {
    const now = Date.now();
    spans.push([now, now + 1000]);
  }
  const busy = spans.reduce((sum, [s, e]) => sum + (e - s), 0);
  const threshold = Math.max(MIN_COLLAPSED_GAP_MS, busy / 5);

  const raw: Omit<ScalePiece, 'x0' | 'x1'>[] = [];
  spans.forEach(([s, e], index) => {
    raw.push({ start: s, end: e, collapsed: false });
    const next = spans[index + 1];
    if (next !== undefined)
      raw.push({ start: e, end: next[0], collapsed: next[0] - e > threshold });
  });

  const breaks = raw.filter((piece) => piece.collapsed).length;
  const linearMs = Math.max(
    1,
    raw.filter((piece) => !piece.collapsed).reduce((sum, p) => sum + (p.end - p.start), 0),
  );
  // Never let breaks eat the whole width: the to-scale part keeps at least half of it.
  const breakPx = Math.min(BREAK_PX, (width / 2 / Math.max(1, breaks)) | 0);
  const pxPerMs = Math.max(0, width - breaks * breakPx) / linearMs;

  let x = 0;
  const pieces: ScalePiece[] = raw.map((piece) => {
    const w = piece.collapsed ? breakPx : (piece.end - piece.start) * pxPerMs;
    const placed = { ...piece, x0: x, x1: x + w };
    x += w;
    return placed;
  });

  const first = spans[0] as [number, number];
  const last = spans[spans.length - 1] as [number, number];
  const toX = (t: number): number => {
    if (t <= first[0]) return 0;
    if (t >= last[1]) return x;
    // Binary search: the piece holding t (pieces are contiguous and sorted).
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pieces[mid] as ScalePiece).end < t) lo = mid + 1;
      else hi = mid;
    }
    const piece = pieces[lo] as ScalePiece;
    const span = piece.end - piece.start;
    return span <= 0 ? piece.x0 : piece.x0 + ((t - piece.start) / span) * (piece.x1 - piece.x0);
  };
  return { pieces, start: first[0], end: last[1], width: x, pxPerMs, toX };
}

const STEPS_MS = [
  1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
];

export interface Tick {
  t: number;
  x: number;
  /** Seconds matter: label with HH:MM:SS rather than HH:MM. */
  withSeconds: boolean;
}

/** Room a tick label needs to its right before a break marker. */
const LABEL_PX = 56;

/**
 * Axis ticks on round clock times, at least `minGapPx` apart, on the to-scale pieces only. After
 * a collapsed gap, the time work resumed gets a tick of its own (the break hides how long it was).
 */
export function timeTicks(scale: TimeScale, minGapPx = 90): Tick[] {
  if (scale.pxPerMs <= 0) return [];
  const step = STEPS_MS.find((ms) => ms * scale.pxPerMs >= minGapPx) ?? (STEPS_MS.at(-1) as number);
  // Align to local clock time so ticks land on :00, :15, :30 ...
  const offset = new Date(scale.start).getTimezoneOffset() * 60_000;
  const ticks: Tick[] = [];
  let lastX = Number.NEGATIVE_INFINITY;
  scale.pieces.forEach((piece, index) => {
    if (piece.collapsed) return;
    const afterBreak = scale.pieces[index - 1]?.collapsed === true;
    const nextBreak =
      scale.pieces.slice(index + 1).find((p) => p.collapsed)?.x0 ?? Number.POSITIVE_INFINITY;
    if (afterBreak) {
      ticks.push({ t: piece.start, x: piece.x0, withSeconds: true });
      lastX = piece.x0;
    }
    const first = Math.ceil((piece.start - offset) / step) * step + offset;
    for (let t = first; t <= piece.end; t += step) {
      const x = scale.toX(t);
      if (x - lastX < minGapPx || x + LABEL_PX > nextBreak) continue;
      ticks.push({ t, x, withSeconds: step < 60_000 });
      lastX = x;
    }
  });
  return ticks;
}

/**
 * Display formats shared by every view. Pure, so the tests pin them: costs as `$0.0123`,
 * durations as `1m 02s`, token counts as `12.3k`.
 */

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * A USD amount: four decimals under a dollar (agent calls cost fractions of a cent), two above.
 * Non-finite input (a missing cost) shows as an em dash rather than `$NaN`.
 */
export function formatUsd(usd: number | undefined): string {
  if (usd === undefined || !Number.isFinite(usd)) return '—';
  const sign = usd < 0 ? '-' : '';
  const abs = Math.abs(usd);
  return `${sign}$${abs < 1 ? abs.toFixed(4) : abs.toFixed(2)}`;
}

/**
 * A duration in ms: `420ms`, `3.2s`, `42s`, `1m 02s`, `1h 05m`, `2d 03h`. Seconds are floored so
 * a running codon's clock never shows a second it has not reached yet.
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes}m ${pad2(totalSeconds % 60)}s`;
  const totalHours = Math.floor(totalMinutes / 60);
  if (totalHours < 24) return `${totalHours}h ${pad2(totalMinutes % 60)}m`;
  return `${Math.floor(totalHours / 24)}d ${pad2(totalHours % 24)}h`;
}

/** Milliseconds between two ISO times; an absent end means "still going" and uses `now`. */
export function durationBetween(
  start: string | undefined,
  end: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (start === undefined) return undefined;
  const from = Date.parse(start);
  const to = end === undefined ? now : Date.parse(end);
  if (Number.isNaN(from) || Number.isNaN(to)) return undefined;
  return Math.max(0, to - from);
}

/** A token count: `950`, `12.3k`, `4.56M`. */
export function formatTokens(count: number | undefined): string {
  if (count === undefined || !Number.isFinite(count)) return '—';
  if (count < 1000) return String(Math.round(count));
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 2 : 1)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

/**
 * A timestamp in the viewer's local time, `2026-11-24 14:03:07`: sortable by eye, and dense
 * enough for tables. Dates are always shown because executions span days.
 */
export function formatDateTime(iso: string | undefined): string {
  if (iso === undefined) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${formatClock(iso)}`;
}

/** The local time of day, `14:03:07`, for event tails where the date is implied. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** A git sha cut to the seven characters people recognise. */
export const shortSha = (sha: string): string => sha.slice(0, 7);

/** Spans shorter than this are labelled by the time since their start (`0s`, `0.5s`, `1s`). */
const RELATIVE_SPAN_SECONDS = 120;

/**
 * A time-axis label for a chart (uPlot gives unix seconds): for a span of under two minutes the
 * seconds since `startSeconds` (`0s`, `0.5s`, `1s`: ticks a fraction of a second apart would all
 * read the same clock), the clock when the chart spans less than a day, `11-24 14:03` when it
 * spans more (the clock alone would repeat).
 */
export function axisTimeLabel(
  seconds: number,
  spanSeconds: number,
  startSeconds?: number,
  stepSeconds?: number,
): string {
  if (startSeconds !== undefined && spanSeconds < RELATIVE_SPAN_SECONDS) {
    const step = stepSeconds ?? spanSeconds / 4;
    const decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
    return `${Math.max(0, seconds - startSeconds).toFixed(decimals)}s`;
  }
  const iso = new Date(seconds * 1000).toISOString();
  if (spanSeconds < 86_400) return formatClock(iso);
  const d = new Date(seconds * 1000);
  return `${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${formatClock(iso).slice(0, 5)}`;
}

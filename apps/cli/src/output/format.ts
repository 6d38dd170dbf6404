import { shortSha } from '@hankweave/inspection';
/** Small, pure formatters shared by every view. */

/** `850ms`, `1.3s`, `2m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * `$0.0168` below a dollar, `$12.40` above; a negative amount as `-$0.0012`. Amounts that round to
 * zero are `$0.0000` whatever their sign: a reconciling `token.usage` can be a hair below zero
 * (float subtraction), and `$-0.0000` reads as a refund.
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return '-';
  const magnitude = Math.abs(usd);
  const digits = magnitude >= 1 ? 2 : 4;
  const text = magnitude.toFixed(digits);
  const roundsToZero = Number(text) === 0;
  return `${usd < 0 && !roundsToZero ? '-' : ''}$${text}`;
}

/** `850`, `7.1k`, `1.2M`. */
export function formatCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export { shortSha };

/** One line: newlines and tabs become spaces, runs of spaces collapse. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to `width` characters, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = Array.from(text);
  if (chars.length <= width) return text;
  return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** Pads or cuts to exactly `width` characters. */
export function fit(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + ' '.repeat(Math.max(0, width - Array.from(cut).length));
}

/** `HH:MM:SS` of an ISO timestamp (UTC, as the journal stores it). */
export function clockTime(iso: string): string {
  return iso.length >= 19 ? iso.slice(11, 19) : iso;
}

/** `2026-01-04 12:00:01` of an ISO timestamp. */
export function dateTime(iso: string): string {
  return iso.length >= 19 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso;
}

/** Milliseconds between two ISO timestamps (the second defaults to now). */
export function elapsedMs(
  startIso: string | undefined,
  endIso?: string,
  now = Date.now(),
): number | undefined {
  if (!startIso) return undefined;
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? undefined : Math.max(0, end - start);
}

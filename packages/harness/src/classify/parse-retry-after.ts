const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const UNIT = String.raw`(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b`;

function unitMs(unit: string): number {
  const lower = unit.toLowerCase();
  if (lower === 'ms' || lower.startsWith('milli')) return 1;
  return lower.startsWith('s') ? 1000 : 60_000;
}

// In priority order. Each returns milliseconds.
const PATTERNS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => number]> = [
  // `retry-after-ms: 1500` (header dumps, JSON bodies).
  [new RegExp(String.raw`retry-after-ms["']?\s*[:=]\s*["']?${NUMBER}`, 'i'), (m) => Number(m[1])],
  // `retry after 7s`, `retry-after 2 minutes`.
  [
    new RegExp(String.raw`retry[\s_-]?after[\s:="']*${NUMBER}\s*${UNIT}`, 'i'),
    (m) => Number(m[1]) * unitMs(m[2] as string),
  ],
  // A bare Retry-After value is in seconds (HTTP); an HTTP-date does not start with a digit.
  [
    new RegExp(String.raw`retry[\s_-]?after["']?\s*[:=]\s*["']?${NUMBER}`, 'i'),
    (m) => Number(m[1]) * 1000,
  ],
  // `try again in 30 seconds`, `retry in 2m`.
  [
    new RegExp(String.raw`(?:try again|retry) in\s+${NUMBER}\s*${UNIT}`, 'i'),
    (m) => Number(m[1]) * unitMs(m[2] as string),
  ],
];

/**
 * How long the error text asks us to wait, in milliseconds (reference §4.9): a `retry-after-ms`
 * key, "retry after N ms|s|m", a bare Retry-After value in seconds, or "try again in N s".
 * HTTP-dates are not parsed; values over one hour are ignored.
 */
export function parseRetryAfterMs(text: string): number | undefined {
  for (const [pattern, toMs] of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const ms = Math.round(toMs(match));
    if (!Number.isFinite(ms) || ms < 0 || ms > MAX_RETRY_AFTER_MS) return undefined;
    return ms;
  }
  return undefined;
}

/** Pacing of a replay: delays come from the recorded timestamps, bounded and scaled. */
export interface ReplayPacing {
  /** Playback speed: 2 replays twice as fast. Default 1. */
  speed: number;
  /** Longest wait between two lines (`HANKWEAVE_REPLAY_MAX_DELAY_MS`). */
  maxDelayMs: number;
  /** Shortest wait between two lines (`HANKWEAVE_REPLAY_SPEED_MS`). */
  minDelayMs: number;
}

/** Default longest wait between two replayed lines. */
export const DEFAULT_REPLAY_MAX_DELAY_MS = 1000;
/** Default shortest wait between two replayed lines (reference §8.2: 5 ms). */
export const DEFAULT_REPLAY_MIN_DELAY_MS = 5;

function timestampOf(line: string): number | undefined {
  try {
    const value = (JSON.parse(line) as { timestamp?: unknown }).timestamp;
    const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The wait before each line: the gap to the previous timestamped line divided by `speed`, clamped
 * to [minDelayMs, maxDelayMs]; lines without a timestamp wait `minDelayMs`. The first line: 0.
 */
export function computeReplayDelays(lines: readonly string[], pacing: ReplayPacing): number[] {
  let previous: number | undefined;
  return lines.map((line, index) => {
    const at = timestampOf(line);
    const gap = at !== undefined && previous !== undefined ? (at - previous) / pacing.speed : 0;
    if (at !== undefined) previous = at;
    if (index === 0) return 0;
    return Math.min(pacing.maxDelayMs, Math.max(pacing.minDelayMs, gap));
  });
}

function envNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

/** Pacing from options, else `HANKWEAVE_REPLAY_MAX_DELAY_MS` / `HANKWEAVE_REPLAY_SPEED_MS`, else defaults. */
export function resolveReplayPacing(
  options: Partial<ReplayPacing>,
  env: Readonly<Record<string, string | undefined>>,
): ReplayPacing {
  const maxDelayMs =
    options.maxDelayMs ??
    envNumber(env.HANKWEAVE_REPLAY_MAX_DELAY_MS) ??
    DEFAULT_REPLAY_MAX_DELAY_MS;
  const minDelayMs =
    options.minDelayMs ?? envNumber(env.HANKWEAVE_REPLAY_SPEED_MS) ?? DEFAULT_REPLAY_MIN_DELAY_MS;
  const speed = options.speed !== undefined && options.speed > 0 ? options.speed : 1;
  return { speed, maxDelayMs, minDelayMs: Math.min(minDelayMs, maxDelayMs) };
}

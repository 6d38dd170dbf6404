import { SessionsError } from './errors.js';
import { isJsonObject } from './internal/json-file.js';
import type { SessionEntry, SessionStatus } from './registry.js';

/** Which registry entries {@link selectPrunable} picks. */
export interface PruneSelection {
  /** Only entries that ended (or started, if they never ended) longer ago than this. */
  olderThanMs: number;
  /** Only entries in one of these statuses (`running` is never picked). */
  statuses: readonly SessionStatus[];
  /** The reference time (default now). */
  now?: Date;
}

/**
 * The keys of the entries to prune, in registry order: never `running` ones; the status is one
 * of `statuses`; and `completed_at ?? killed_at ?? started_at` (the seed's cleanup recipe's
 * time) is older than `now - olderThanMs`. An entry whose time does not parse is kept.
 */
export function selectPrunable(
  sessions: Record<string, SessionEntry>,
  selection: PruneSelection,
): string[] {
  const cutoff = (selection.now ?? new Date()).getTime() - selection.olderThanMs;
  const statuses = new Set<string>(selection.statuses);
  const keys: string[] = [];
  for (const [key, entry] of Object.entries(sessions)) {
    if (!isJsonObject(entry) || entry.status === 'running' || !statuses.has(entry.status)) continue;
    const time = entry.completed_at ?? entry.killed_at ?? entry.started_at;
    const ms = typeof time === 'string' ? Date.parse(time) : Number.NaN;
    if (!Number.isNaN(ms) && ms < cutoff) keys.push(key);
  }
  return keys;
}

const UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * A duration such as `7d`, `12h`, `30m`, `45s` or `2w` (a whole number and one unit) in ms.
 * @throws {SessionsError} SESSIONS_INVALID_DURATION for anything else.
 */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([smhdw])$/i.exec(text.trim());
  const ms = Number(match?.[1]) * (UNIT_MS[match?.[2]?.toLowerCase() ?? ''] ?? Number.NaN);
  if (!Number.isSafeInteger(ms)) {
    throw new SessionsError(
      'SESSIONS_INVALID_DURATION',
      `"${text}" is not a duration: write a whole number and a unit s, m, h, d or w (e.g. 7d, 12h, 30m)`,
      { details: { text } },
    );
  }
  return ms;
}

import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Fs, isMissing, nodeFs } from '@hankweave/durable-io';
import { ioError } from './internal/json-file.js';
import { sessionLayout } from './layout.js';
import { DEFAULT_LOCK_STALE_MS, SessionRegistry } from './registry.js';

/** The seed's thresholds for a session still running: warn, suggest a kill, kill unless confirmed. */
export const STALE_THRESHOLDS_MS = Object.freeze({
  warn: 2 * 3_600_000,
  suggestKill: 4 * 3_600_000,
  kill: 8 * 3_600_000,
});

/** What {@link checkSessions} finds wrong under a project directory. */
export interface SessionAnomalies {
  /** `loop-state-{s}.json` without a `loop-{s}` entry; `pipeline-runs/{s}/` without `pipeline-{s}`. */
  orphans: { file: string; session: string; kind: 'loop-state' | 'pipeline-run' }[];
  /** `running`, with a pid on this host (or no host recorded) that is no longer alive. */
  zombies: { key: string; pid: number }[];
  /** `running` (and not a zombie) for longer than a threshold of {@link STALE_THRESHOLDS_MS}. */
  stale: { key: string; runningForMs: number; level: 'warn' | 'suggest-kill' | 'kill' }[];
  /** Registry or completions lock directories not refreshed for longer than `lockStaleMs`. */
  staleLocks: { file: string; ageMs: number }[];
}

/**
 * Finds seed 004's anomalies under `projectDir` (reads only; fixing them is the caller's choice).
 * Registry entries that fail the schema still count as present for orphan detection.
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when the registry is unparseable; SESSIONS_IO
 */
export async function checkSessions(
  projectDir: string,
  options: {
    now?: Date;
    isAlive?: (pid: number) => boolean;
    lockStaleMs?: number;
    fs?: Fs;
  } = {},
): Promise<SessionAnomalies> {
  const fs = options.fs ?? nodeFs;
  const now = (options.now ?? new Date()).getTime();
  const isAlive = options.isAlive ?? isProcessAlive;
  const layout = sessionLayout(projectDir);
  const snapshot = await new SessionRegistry(projectDir, { fs }).read();
  const keys = new Set([
    ...Object.keys(snapshot.sessions),
    ...snapshot.problems.flatMap((problem) => (problem.key === undefined ? [] : [problem.key])),
  ]);
  const anomalies: SessionAnomalies = { orphans: [], zombies: [], stale: [], staleLocks: [] };

  for (const name of await listDirectory(fs, layout.claudeDir)) {
    const session = /^loop-state-(.+)\.json$/.exec(name)?.[1];
    if (session !== undefined && !keys.has(`loop-${session}`)) {
      anomalies.orphans.push({ file: join(layout.claudeDir, name), session, kind: 'loop-state' });
    }
  }
  const runsDir = join(layout.claudeDir, 'pipeline-runs');
  for (const session of await listDirectory(fs, runsDir, true)) {
    if (!keys.has(`pipeline-${session}`)) {
      anomalies.orphans.push({ file: join(runsDir, session), session, kind: 'pipeline-run' });
    }
  }

  const thisHost = hostname();
  for (const [key, entry] of Object.entries(snapshot.sessions)) {
    if (entry.status !== 'running') continue;
    const onThisHost = entry.hostname == null || entry.hostname === thisHost;
    if (typeof entry.pid === 'number' && onThisHost && !isAlive(entry.pid)) {
      anomalies.zombies.push({ key, pid: entry.pid });
      continue;
    }
    const runningForMs = now - Date.parse(entry.started_at);
    const level = staleLevel(runningForMs);
    if (level !== undefined) anomalies.stale.push({ key, runningForMs, level });
  }

  const lockStaleMs = options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS;
  for (const file of [layout.registryLockFile, layout.completionsLockFile]) {
    const ageMs = await lockAge(fs, file, now);
    if (ageMs !== undefined && ageMs > lockStaleMs) anomalies.staleLocks.push({ file, ageMs });
  }
  return anomalies;
}

/** True while `pid` names a live process (`kill(pid, 0)`; EPERM means alive, not ours). */
export function isProcessAlive(pid: number): boolean {
  // 0 and negative pids address process groups, never one process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function staleLevel(runningForMs: number): SessionAnomalies['stale'][number]['level'] | undefined {
  // NaN (an unparseable started_at) fails every comparison: no level.
  if (runningForMs >= STALE_THRESHOLDS_MS.kill) return 'kill';
  if (runningForMs >= STALE_THRESHOLDS_MS.suggestKill) return 'suggest-kill';
  if (runningForMs >= STALE_THRESHOLDS_MS.warn) return 'warn';
  return undefined;
}

async function listDirectory(fs: Fs, dir: string, directoriesOnly = false): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => (directoriesOnly ? entry.isDirectory() : entry.isFile()))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw ioError('list', dir, error);
  }
}

async function lockAge(fs: Fs, file: string, now: number): Promise<number | undefined> {
  try {
    return now - (await fs.stat(file)).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw ioError('stat', file, error);
  }
}

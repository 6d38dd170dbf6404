import {
  checkSessions,
  type SessionAnomalies,
  type SessionEntry,
  SessionRegistry,
} from '@hankweave/sessions';
import { isSameProcessAlive, readRuntimeLock } from '@hankweave/state';
import { executionLayout } from '../execution/layout.js';
import { killExecution } from './kill-execution.js';
import { markEnded } from './mark-ended.js';

/** Options of {@link checkAndRepairExecutions}. */
export interface CheckAndRepairOptions {
  /** The project directory holding `.claude/` (the execution base directory). */
  projectDir: string;
  now?: Date;
  /** Mark zombies and kill 8h+ sessions (default true); false only reports. */
  fix?: boolean;
  /**
   * Asked once per session running longer than the kill threshold (8h); true kills it. Without
   * it every such session is killed (when fixing).
   */
  killStale?: (key: string) => boolean | Promise<boolean>;
  /** Grace period of those kills (default 10 000 ms). */
  killGraceMs?: number;
}

/** What {@link checkAndRepairExecutions} found and did. */
export interface CheckAndRepairResult {
  /** checkSessions' anomalies; `staleLocks` also lists the runtime.lock files of zombies. */
  anomalies: SessionAnomalies;
  /** Zombie sessions marked `unknown_termination` (their loops included). */
  fixed: string[];
  /** Stale sessions killed (a loop's pipeline with it: a loop runs in its pipeline's runtime). */
  killed: string[];
  /** Kills that were refused or failed, with the reason. */
  errors: { key: string; message: string }[];
}

/**
 * `checkSessions` (orphaned state files, zombies, stale sessions, stale registry locks) plus the
 * fixes: a zombie becomes `unknown_termination` with the note "process {pid} died without
 * closing the session (found by sessions --check at T)"; the runtime.lock a zombie left behind is
 * reported (the next run of that execution takes it over); a session running longer than the
 * kill threshold is killed unless `killStale` says no.
 *
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when the registry is not JSON.
 */
export async function checkAndRepairExecutions(
  options: CheckAndRepairOptions,
): Promise<CheckAndRepairResult> {
  const now = options.now ?? new Date();
  const fix = options.fix !== false;
  const registry = new SessionRegistry(options.projectDir);
  // A session's pid is its runtime only while it has the start time its runtime.lock records:
  // a pid reused by another process is a dead runtime (a zombie session), never a live one.
  const recorded = await recordedStartTimes(registry);
  const isAlive = (pid: number) => isSameProcessAlive(pid, recorded.get(pid));
  const anomalies = await checkSessions(options.projectDir, { now, isAlive });
  const { sessions } = await registry.read();
  const result: CheckAndRepairResult = { anomalies, fixed: [], killed: [], errors: [] };

  for (const zombie of anomalies.zombies) {
    const lock = await deadRuntimeLock(sessions[zombie.key], zombie.pid, now);
    if (lock && !anomalies.staleLocks.some((known) => known.file === lock.file))
      anomalies.staleLocks.push(lock);
    if (!fix || result.fixed.includes(zombie.key)) continue;
    const changed = await markEnded(registry, zombie.key, {
      status: 'unknown_termination',
      note: `process ${zombie.pid} died without closing the session (found by sessions --check at ${now.toISOString()})`,
      at: now,
      pid: zombie.pid,
    });
    result.fixed.push(...changed.filter((key) => !result.fixed.includes(key)));
  }

  if (!fix) return result;
  // A loop runs in its pipeline's runtime: one question and one kill per runtime.
  const byTarget = new Map<string, string[]>();
  for (const stale of anomalies.stale) {
    if (stale.level !== 'kill') continue;
    const entry = sessions[stale.key];
    const target =
      entry?.type === 'loop' && entry.parent && sessions[entry.parent] ? entry.parent : stale.key;
    byTarget.set(target, [...(byTarget.get(target) ?? []), stale.key]);
  }
  for (const [target, keys] of byTarget) {
    if (options.killStale && !(await options.killStale(target))) continue;
    try {
      const killed = await killExecution(target, {
        projectDir: options.projectDir,
        ...(options.killGraceMs !== undefined ? { graceMs: options.killGraceMs } : {}),
      });
      if (killed.outcome === 'stopped' || killed.outcome === 'forced')
        result.killed.push(...new Set([target, ...keys]));
    } catch (error) {
      result.errors.push({
        key: target,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return result;
}

/** pid → the start time the execution's runtime.lock records for it, over every session. */
async function recordedStartTimes(registry: SessionRegistry): Promise<Map<number, string>> {
  const times = new Map<number, string>();
  const { sessions } = await registry.read();
  for (const entry of Object.values(sessions)) {
    if (typeof entry.pid !== 'number' || !entry.execution_dir) continue;
    const lock = await readRuntimeLock(executionLayout(entry.execution_dir).hankweaveDir).catch(
      () => undefined,
    );
    if (lock?.pid === entry.pid && lock.processStartTime !== undefined)
      times.set(entry.pid, lock.processStartTime);
  }
  return times;
}

/** The runtime.lock a dead process left in its execution, if it is that process's. */
async function deadRuntimeLock(
  entry: SessionEntry | undefined,
  pid: number,
  now: Date,
): Promise<{ file: string; ageMs: number } | undefined> {
  if (!entry?.execution_dir) return undefined;
  const { hankweaveDir, lockFile } = executionLayout(entry.execution_dir);
  const lock = await readRuntimeLock(hankweaveDir).catch(() => undefined);
  if (!lock || lock.pid !== pid || isSameProcessAlive(lock.pid, lock.processStartTime))
    return undefined;
  const heartbeat = Date.parse(lock.lastHeartbeat);
  return {
    file: lockFile,
    ageMs: Number.isNaN(heartbeat) ? 0 : Math.max(0, now.getTime() - heartbeat),
  };
}

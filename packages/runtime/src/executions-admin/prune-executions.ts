import { rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SessionRegistry, type SessionStatus, sessionLayout } from '@hankweave/sessions';
import { isSameProcessAlive, readRuntimeLock } from '@hankweave/state';
import { executionLayout } from '../execution/layout.js';
import { type PrunePath, type PruneSkip, planPrune } from './prune-plan.js';

/** What {@link pruneExecutions} removed, or would remove in a dry run. */
export interface PruneResult {
  dryRun: boolean;
  /** The registry keys removed (would be). */
  sessions: string[];
  /** Every path removed (would be), with its bytes measured before removal. */
  paths: PrunePath[];
  /** The sum of `paths[].bytes`. */
  freedBytes: number;
  /** Execution and config dirs the sessions name but that were kept, and why. */
  skipped: PruneSkip[];
}

/** Options of {@link pruneExecutions}. */
export interface PruneExecutionsOptions {
  /** The project directory holding `.claude/` (the execution base directory). */
  projectDir: string;
  /** Only sessions that ended longer ago than this (default 7 days). */
  olderThanMs?: number;
  /** Default `['completed', 'killed']`; `running` is never pruned. */
  statuses?: SessionStatus[];
  /** Also remove execution dirs, their backups and dry-run agent config dirs. */
  executions?: boolean;
  /** Measure and report only; remove nothing. */
  dryRun?: boolean;
  now?: Date;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Removes old sessions from the registry with their files in `.claude/` (loop state, pipeline
 * run dir, progress file) and, with `executions`, the execution directories they name (only
 * ones holding `.hankweave/execution-meta.json` and not held by a live runtime), the
 * `.hankweave.backup-*` folders in them, and dry-run agent config dirs under the temp dir that no
 * remaining session uses. Paths are measured first, so a dry run reports exactly what the real
 * run then frees. Registry entries are removed under the registry lock, and only while still not
 * running: a session resumed meanwhile keeps its entry and its files.
 *
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE (unreadable registry), SESSIONS_LOCK_TIMEOUT.
 */
export async function pruneExecutions(options: PruneExecutionsOptions): Promise<PruneResult> {
  const dryRun = options.dryRun === true;
  const registry = new SessionRegistry(options.projectDir);
  const { sessions } = await registry.read();
  const plan = await planPrune(sessions, sessionLayout(options.projectDir), {
    olderThanMs: options.olderThanMs ?? WEEK_MS,
    statuses: options.statuses ?? ['completed', 'killed'],
    executions: options.executions === true,
    now: options.now ?? new Date(),
    isLive: liveRuntimeHolds,
  });
  const result = (keys: string[], paths: PrunePath[]): PruneResult => ({
    dryRun,
    sessions: keys,
    paths,
    freedBytes: paths.reduce((sum, path) => sum + path.bytes, 0),
    skipped: plan.skipped,
  });
  if (dryRun || plan.keys.length === 0) return result(plan.keys, plan.paths);

  const planned = new Set(plan.keys);
  const removed = await registry.update((current) => {
    const gone: string[] = [];
    for (const key of planned) {
      const entry = current[key];
      if (entry && entry.status !== 'running') {
        delete current[key];
        gone.push(key);
      }
    }
    return gone;
  });
  // A session resumed since the plan keeps its entry, and every path it shares.
  const kept = new Set(plan.keys.filter((key) => !removed.includes(key)));
  const freed: PrunePath[] = [];
  for (const path of plan.paths) {
    if ((plan.owners.get(path.path) ?? []).some((key) => kept.has(key))) continue;
    if (path.kind === 'execution' && (await liveRuntimeHolds(path.path))) continue;
    if (path.created) {
      // Only what hankweave made: its entries, then the directory if it made that too and
      // nothing else is left in it (a user's own files keep it).
      for (const name of path.created.entries)
        await rm(join(path.path, name), { recursive: true, force: true });
    } else {
      await rm(path.path, { recursive: true, force: true });
    }
    if (path.kind === 'agent-config') await rmdir(dirname(path.path)).catch(() => undefined);
    freed.push(path);
  }
  // Once its backups are gone too: the directory itself, if hankweave made it and it is empty.
  for (const path of freed) {
    if (path.created?.directory) await rmdir(path.path).catch(() => undefined);
  }
  return result(
    plan.keys.filter((key) => removed.includes(key)),
    freed,
  );
}

/** True when a live process holds the execution's runtime.lock (its heartbeat may be old). */
async function liveRuntimeHolds(executionDir: string): Promise<boolean> {
  const lock = await readRuntimeLock(executionLayout(executionDir).hankweaveDir).catch(
    () => undefined,
  );
  return lock !== undefined && isSameProcessAlive(lock.pid, lock.processStartTime);
}

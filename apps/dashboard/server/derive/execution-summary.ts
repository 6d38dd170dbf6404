import { executionThread, totalCost } from '@hankweave/state';
import {
  type CodonExecution,
  type ExecutionMeta,
  type HankweaveState,
  isInterruption,
  type Run,
  type RuntimeLock,
} from '@hankweave/types';
import type { ExecutionStatus, ExecutionSummary } from '../../src/api/types.js';
import { recordEnd } from './codon-bars.js';

/** What one execution directory holds, read by the catalog; everything a summary is made from. */
export interface ExecutionFacts {
  id: string;
  dir: string;
  hankName: string;
  /** Undefined when state.json is missing or unreadable. */
  state: HankweaveState | undefined;
  meta: ExecutionMeta | undefined;
  /** The lock of a live runtime (pid alive, heartbeat fresh), else undefined. */
  lock: RuntimeLock | undefined;
  /** What the fleet's database says of it (`hankweave ui --postgres`), when it has it. */
  fleet?: FleetFacts;
}

/** An execution as a fleet's workers mirrored it into Postgres. */
export interface FleetFacts {
  worker?: string;
  jobId?: string;
  /** When a worker last wrote it. */
  updatedAt: string;
  /** Whether its directory is readable here (shared storage): checkpoints and actions need it. */
  files: boolean;
  hankPath?: string;
  dataPath?: string;
}

/**
 * The list's status: `running` while a runtime holds the lock; otherwise from the newest run:
 * `failed`/`crashed` as recorded, a run still marked running (its runtime died) is `crashed`,
 * and a completed run is `completed` only when nothing of the plan is left (else `partial`: a
 * stop, a rollback, a resume to come). No run at all is `empty`.
 */
export function executionStatus(state: HankweaveState | undefined, live: boolean): ExecutionStatus {
  if (live) return 'running';
  const latest = state?.runs[0];
  if (!state || !latest) return 'empty';
  if (latest.status === 'failed')
    return executionThread(state).interruptedCodonId ? 'interrupted' : 'failed';
  if (latest.status === 'crashed' || latest.status === 'running') return 'crashed';
  const thread = executionThread(state);
  return thread.nextCodonId === null && !thread.hasRunningCodon ? 'completed' : 'partial';
}

const ms = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Date.parse(text);
  return Number.isNaN(value) ? undefined : value;
};

/** The last moment a run is known to have been active: its end, else its newest codon's. */
function lastActivity(run: Run): number | undefined {
  const candidates = [
    ms(run.endTime),
    ...run.codons.flatMap((codon: CodonExecution) => [ms(recordEnd(codon)), ms(codon.startTime)]),
    ms(run.startTime),
  ].filter((value): value is number => value !== undefined);
  return candidates.length > 0 ? Math.max(...candidates) : undefined;
}

/**
 * The latest record of each codon id on the execution thread (the one `status` shows); an
 * interrupted codon is counted as `interrupted`, not `failed`.
 */
function threadCounts(state: HankweaveState): ExecutionSummary['codons'] {
  const seen = new Set<string>();
  const counts = { completed: 0, failed: 0, skipped: 0, planned: state.executionPlan.length };
  let interrupted = 0;
  for (const { codon } of executionThread(state).codons) {
    if (seen.has(codon.codonId)) continue;
    seen.add(codon.codonId);
    if (codon.status === 'failed' && isInterruption(codon.failureReason)) interrupted += 1;
    else if (
      codon.status === 'completed' ||
      codon.status === 'failed' ||
      codon.status === 'skipped'
    )
      counts[codon.status] += 1;
  }
  return interrupted > 0 ? { ...counts, interrupted } : counts;
}

/**
 * One row of the executions list. `durationMs` adds up the runs' own durations (a resume days
 * later does not count the days in between); a live run counts up to `now`.
 */
export function executionSummary(facts: ExecutionFacts, now: Date): ExecutionSummary {
  const { state, meta, lock } = facts;
  const runs = state?.runs ?? [];
  const live = lock !== undefined;
  const liveRunId = lock?.runId ?? state?.currentRunId ?? undefined;
  let durationMs = 0;
  let ended: number | undefined;
  for (const run of runs) {
    const start = ms(run.startTime);
    const end = live && run.runId === liveRunId ? now.getTime() : lastActivity(run);
    if (start !== undefined && end !== undefined) durationMs += Math.max(0, end - start);
    if (end !== undefined) ended = Math.max(ended ?? end, end);
  }
  if (live) ended = now.getTime();
  const oldest = runs[runs.length - 1];
  const startedAt = oldest?.startTime ?? meta?.createdAt;
  const models = state
    ? [
        ...new Set(
          state.executionPlan.flatMap((entry) => {
            const model = (entry.codon as { model?: unknown }).model;
            return typeof model === 'string' && model !== '' ? [model] : [];
          }),
        ),
      ]
    : [];
  return {
    id: facts.id,
    dir: facts.dir,
    hankName: facts.hankName,
    ...(meta
      ? {
          hankPath: meta.hankPath,
          hankSource: meta.hankSource ?? { kind: 'path', path: meta.hankPath },
          dataPath: meta.readOnlySourceDataPath,
        }
      : fleetPaths(facts.fleet)),
    // Without its files there is no lock to read: a run the workers last wrote as running is.
    status:
      facts.fleet && !facts.fleet.files && state?.runs[0]?.status === 'running'
        ? 'running'
        : executionStatus(state, live),
    live,
    ...(startedAt ? { startedAt } : {}),
    ...(ended !== undefined ? { endedAt: new Date(ended).toISOString() } : {}),
    ...(runs.length > 0 ? { durationMs } : {}),
    costUsd: state ? totalCost(state) : 0,
    codons: state ? threadCounts(state) : { completed: 0, failed: 0, skipped: 0, planned: 0 },
    runs: runs.length,
    models,
    ...(facts.fleet
      ? {
          fleet: {
            ...(facts.fleet.worker ? { worker: facts.fleet.worker } : {}),
            ...(facts.fleet.jobId ? { jobId: facts.fleet.jobId } : {}),
            updatedAt: facts.fleet.updatedAt,
            files: facts.fleet.files,
          },
        }
      : {}),
  };
}

function fleetPaths(fleet: FleetFacts | undefined): { hankPath?: string; dataPath?: string } {
  return {
    ...(fleet?.hankPath ? { hankPath: fleet.hankPath } : {}),
    ...(fleet?.dataPath ? { dataPath: fleet.dataPath } : {}),
  };
}

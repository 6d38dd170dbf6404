import {
  type CodonExecution,
  type HankweaveState,
  isInterruption,
  isTerminalCodonStatus,
  type Run,
  type RunStatus,
} from '@hankweave/types';
import { latestCodonIndex } from '../reducer/lookup.js';
import { currentRun, findRun, latestRun } from './inspect.js';

/** One codon record on the execution thread, with the run it belongs to. */
export interface ThreadCodon {
  codon: CodonExecution;
  runId: string;
  runStatus: RunStatus;
  runStartTime: string;
  runEndTime?: string;
  gitBranch: string;
  /** Position in the thread, 0 = the oldest codon. */
  globalIndex: number;
  /** Position of its run in the thread, 0 = the oldest run. */
  runIndex: number;
  /** Position of the record in `run.codons`. */
  codonIndexInRun: number;
}

/** The work that led to a run, across the continuations it descends from (reference §5.4, §6.2). */
export interface ExecutionThread {
  /** The run the thread ends in; undefined when the state has no run. */
  runId?: string;
  /** Run ids of the thread, newest (the target) first. */
  runIds: string[];
  /** Codon records on the thread, newest first. */
  codons: ThreadCodon[];
  /** True when the thread's run failed or crashed: nothing runs next until a rollback. */
  failed: boolean;
  /**
   * The codon whose interruption (Ctrl-C, SIGTERM, a client's shutdown) ended the failed run:
   * the newest record on the thread failed as interrupted. Resuming runs it again from the last
   * success. Undefined when the run failed for another reason, or did not fail.
   */
  interruptedCodonId?: string;
  hasRunningCodon: boolean;
  /** The plan entry to execute next, or null (failed run, end of the plan, unknown codon). */
  nextCodonId: string | null;
}

type Limit = { kind: 'all' } | { kind: 'none' } | { kind: 'after'; codonId: string; sha: string };

const limitFromStart = (run: Run): Limit | undefined => {
  const start = run.startingConditions;
  if (start.type !== 'continuation') return undefined;
  return start.source.afterCodon === null
    ? { kind: 'none' }
    : { kind: 'after', codonId: start.source.afterCodon, sha: start.source.checkpointSha };
};

// How many of `run.codons` belong on the thread, and the limit left for the run's ancestors.
const cut = (run: Run, limit: Limit): { count: number; carried?: Limit } => {
  if (limit.kind === 'all') return { count: run.codons.length };
  // From the start: nothing of this run counts, nor of any run before it. Carried up the chain,
  // or a grandparent's own continuation point would bring its codons back onto the thread.
  if (limit.kind === 'none') return { count: 0, carried: limit };
  const index = latestCodonIndex(run, limit.codonId);
  // The codon ran in an older ancestor: none of this run counts, the limit moves up.
  if (index < 0) return { count: 0, carried: limit };
  const record = run.codons[index] as CodonExecution & Record<string, unknown>;
  // Continuing from a rig-setup checkpoint re-runs that codon, so it is not on the thread.
  const fromRigSetup =
    limit.sha !== '' &&
    record.rigSetupCheckpoint === limit.sha &&
    record.completionCheckpoint !== limit.sha;
  return { count: fromRigSetup ? index : index + 1 };
};

/**
 * Rebuilds the execution thread ending in `runId` (default: the current run, else the newest)
 * by walking continuations backwards: the target's own codons all count; a parent's count up to
 * its `afterCodon` (none when `afterCodon` is null), and so on up the chain.
 */
export const executionThread = (state: HankweaveState, runId?: string): ExecutionThread => {
  const target =
    runId === undefined ? (currentRun(state) ?? latestRun(state)) : findRun(state, runId);
  const segments: { run: Run; count: number }[] = [];
  const seen = new Set<string>();
  let run = target;
  let limit: Limit = { kind: 'all' };
  while (run !== undefined && !seen.has(run.runId)) {
    seen.add(run.runId);
    const { count, carried } = cut(run, limit);
    segments.push({ run, count });
    const own = limitFromStart(run);
    if (own === undefined) break;
    limit = carried ?? own;
    const start = run.startingConditions;
    run = start.type === 'continuation' ? findRun(state, start.source.runId) : undefined;
  }

  const oldestFirst: ThreadCodon[] = [];
  segments.reverse().forEach(({ run: segmentRun, count }, runIndex) => {
    segmentRun.codons.slice(0, count).forEach((codon, codonIndexInRun) => {
      oldestFirst.push({
        codon,
        runId: segmentRun.runId,
        runStatus: segmentRun.status,
        runStartTime: segmentRun.startTime,
        ...(segmentRun.endTime === undefined ? {} : { runEndTime: segmentRun.endTime }),
        gitBranch: segmentRun.gitBranch,
        globalIndex: oldestFirst.length,
        runIndex,
        codonIndexInRun,
      });
    });
  });
  const codons = oldestFirst.reverse();
  const failed = target?.status === 'failed' || target?.status === 'crashed';
  const newest = codons[0]?.codon;
  const interrupted =
    target?.status === 'failed' &&
    newest?.status === 'failed' &&
    isInterruption(newest.failureReason)
      ? newest.codonId
      : undefined;
  return {
    ...(target === undefined ? {} : { runId: target.runId }),
    ...(interrupted === undefined ? {} : { interruptedCodonId: interrupted }),
    runIds: segments.map((segment) => segment.run.runId).reverse(),
    codons,
    failed,
    hasRunningCodon: codons.some((entry) => !isTerminalCodonStatus(entry.codon.status)),
    nextCodonId: failed ? null : nextAfter(state, codons[0]?.codon.codonId),
  };
};

const nextAfter = (state: HankweaveState, codonId: string | undefined): string | null => {
  if (codonId === undefined) return state.executionPlan[0]?.codonId ?? null;
  const index = state.executionPlan.findIndex((entry) => entry.codonId === codonId);
  return index < 0 ? null : (state.executionPlan[index + 1]?.codonId ?? null);
};

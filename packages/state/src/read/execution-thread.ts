import {
  type CodonExecution,
  type ExecutionCodonEntry,
  type HankweaveState,
  isInterruption,
  isTerminalCodonStatus,
  type Run,
  type RunStatus,
} from '@hankweave/types';
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

/**
 * Which records of a run after a continuation point inside a parallel block still belong on the
 * thread: the other branches' records of that block (issue 36). Each branch is its own lane with
 * its own work tree, so continuing after a codon of one branch (a rollback to it, a resume) undoes
 * that branch's later work only; what the sibling branches did before the block merged stays.
 * Undefined when the codon is no branch codon: a plain prefix, as the original's thread is.
 */
export type SiblingRecords = (record: CodonExecution) => 'keep' | 'skip' | 'stop';

export function siblingRecords(
  plan: readonly ExecutionCodonEntry[],
  codonId: string,
): SiblingRecords | undefined {
  const place = plan.find((entry) => entry.codonId === codonId)?.parallelContext;
  if (place?.role !== 'branch') return undefined;
  const lanes = new Map(plan.map((entry) => [entry.codonId, entry.parallelContext]));
  return (record) => {
    const lane = lanes.get(record.codonId);
    // The block's resolver or merge, or anything after the block: the block was over there.
    if (lane?.blockId !== place.blockId || lane.role !== 'branch') return 'stop';
    return lane.branchId === place.branchId ? 'skip' : 'keep';
  };
}

/** A record on the thread being built, before its positions are numbered. */
type Placed = Omit<ThreadCodon, 'globalIndex'>;

/**
 * The part of a parent's thread (oldest first) that a continuation after `afterCodon` keeps: up
 * to that codon's newest record (before it, when the run continues from its rig-setup
 * checkpoint, which runs it again), then, inside a parallel block, the sibling branches' later
 * records. Nothing when the codon is not on the thread.
 */
function keepAfter(
  state: HankweaveState,
  thread: Placed[],
  afterCodon: string,
  sha: string,
): Placed[] {
  const index = thread.findLastIndex((placed) => placed.codon.codonId === afterCodon);
  if (index < 0) return [];
  const record = (thread[index] as Placed).codon as CodonExecution & Record<string, unknown>;
  const fromRigSetup =
    sha !== '' && record.rigSetupCheckpoint === sha && record.completionCheckpoint !== sha;
  const kept = thread.slice(0, fromRigSetup ? index : index + 1);
  const siblings = siblingRecords(state.executionPlan, afterCodon);
  if (siblings) {
    for (const placed of thread.slice(index + 1)) {
      const verdict = siblings(placed.codon);
      if (verdict === 'stop') break;
      if (verdict === 'keep') kept.push(placed);
    }
  }
  return kept;
}

/**
 * Rebuilds the execution thread ending in `runId` (default: the current run, else the newest):
 * the chain of continuations back to a fresh run (or a source that is gone), then, oldest run
 * first, each run's codons after what its start keeps of its parent's thread: up to its
 * `afterCodon` (nothing when that is null), plus a parallel block's sibling branches.
 */
export const executionThread = (state: HankweaveState, runId?: string): ExecutionThread => {
  const target =
    runId === undefined ? (currentRun(state) ?? latestRun(state)) : findRun(state, runId);
  // Newest first.
  const chain: Run[] = [];
  const seen = new Set<string>();
  for (let run = target; run !== undefined && !seen.has(run.runId); ) {
    seen.add(run.runId);
    chain.push(run);
    const start = run.startingConditions;
    run = start.type === 'continuation' ? findRun(state, start.source.runId) : undefined;
  }
  chain.reverse();

  let thread: Placed[] = [];
  chain.forEach((run, runIndex) => {
    const start = run.startingConditions;
    // The oldest run's start names no run of this state (or none): all of its codons count.
    if (runIndex > 0 && start.type === 'continuation') {
      thread =
        start.source.afterCodon === null
          ? []
          : keepAfter(state, thread, start.source.afterCodon, start.source.checkpointSha);
    }
    run.codons.forEach((codon, codonIndexInRun) => {
      thread.push({
        codon,
        runId: run.runId,
        runStatus: run.status,
        runStartTime: run.startTime,
        ...(run.endTime === undefined ? {} : { runEndTime: run.endTime }),
        gitBranch: run.gitBranch,
        runIndex,
        codonIndexInRun,
      });
    });
  });
  const oldestFirst: ThreadCodon[] = thread.map((placed, globalIndex) => ({
    ...placed,
    globalIndex,
  }));
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
    runIds: chain.map((run) => run.runId).reverse(),
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

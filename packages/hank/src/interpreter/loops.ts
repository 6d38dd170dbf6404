import type { Execution, LoopTermination, PlateauVote } from './outcomes.js';
import { type Entry, iterationOf, type PlanEntry } from './plan.js';
import { plateauVerdict } from './plateau-verdict.js';
import { onThread, planIndex, planOf, type RunState } from './run-state.js';

// Loop decisions of the reference interpreter: after each loop codon, whether the loop ends or
// which entry follows, and the plateau votes that decide it. The rules are in interpret.ts's
// header.

/** Drops the loop's entries from `from` on out of the plan, and records how the loop ended. */
export const endLoop = (
  state: RunState,
  entry: Entry,
  reason: LoopTermination,
  from = planIndex(state, entry.codonId) + 1,
) => {
  const plan = planOf(state, entry.codonId);
  const loopId = entry.loop?.config.id;
  for (let at = plan.length - 1; at >= from; at--) {
    if (plan[at]?.loop?.config.id === loopId) plan.splice(at, 1);
  }
  state.loops.push({ loopId: loopId ?? '', iteration: entry.loop?.iteration ?? 0, reason });
};

/** Makes sure `successors` follow the entry at `at`, in order, inserting the missing ones. */
export const ensureAfter = (plan: PlanEntry[], at: number, successors: readonly Entry[]) => {
  let previous = at;
  for (const successor of successors) {
    const found = plan.findIndex((entry) => entry.codonId === successor.codonId);
    if (found >= 0) previous = found;
    else plan.splice(++previous, 0, successor);
  }
};

/** Votes of executions on the thread: a vote cut off by a resume or rollback no longer counts. */
const visibleVotes = (state: RunState, loopId: string) =>
  state.votes.filter((vote) => vote.loopId === loopId && onThread(state, vote.execution));

export const recordVote = (
  state: RunState,
  entry: Entry,
  execution: number,
  vote: PlateauVote | undefined,
) => {
  const loop = entry.loop;
  if (loop?.config.terminateOn.type !== 'plateau') return;
  const reported = state.executions[execution]?.status === 'completed' ? vote : undefined;
  const iteration = loop.iteration + 1;
  const last = loop.index === loop.config.codons.length - 1;
  const decided = visibleVotes(state, loop.config.id).some(
    (earlier) => earlier.iteration === iteration && earlier.decision !== 'missing',
  );
  if (reported === undefined && (!last || decided)) return;
  state.votes.push({
    loopId: loop.config.id,
    iteration,
    decision: reported ?? 'missing',
    execution,
  });
};

/**
 * True when no codon of the iteration did any work: the newest execution of each, on the
 * thread, failed or was skipped by a condition.
 */
const iterationFailed = (state: RunState, loopId: string, iteration: number): boolean => {
  const { executions, entryOf } = state;
  const newest = new Map<string, Execution>();
  for (const index of state.thread) {
    const of = entryOf[index]?.loop;
    if (of?.config.id === loopId && of.iteration === iteration) {
      newest.set((executions[index] as Execution).codonId, executions[index] as Execution);
    }
  }
  return [...newest.values()].every(
    (execution) => execution.status === 'failed' || execution.skippedBy === 'condition',
  );
};

/** The plan after a loop codon that completed, was skipped or was ignored; true: the run fails. */
export const afterCodon = (state: RunState, entry: Entry, index: number): boolean => {
  const execution = state.executions[index] as Execution;
  const loop = entry.loop;
  if (!loop) return false;
  const { config, iteration } = loop;
  const plan = planOf(state, entry.codonId);
  const at = planIndex(state, entry.codonId);
  const iterationEntries = (n: number) => iterationOf(config, n, entry.lane, entry.block);
  if (execution.contextExceeded && config.terminateOn.type === 'contextExceeded') {
    endLoop(state, entry, 'context_exceeded');
    return false;
  }
  if (loop.index < config.codons.length - 1) {
    ensureAfter(plan, at, iterationEntries(iteration).slice(loop.index + 1, loop.index + 2));
    return false;
  }
  if (execution.budgetExceeded) {
    endLoop(state, entry, 'failure');
    return false;
  }
  const terminate = config.terminateOn;
  if (terminate.type === 'contextExceeded' && iterationFailed(state, config.id, iteration)) {
    endLoop(state, entry, 'failure');
    return false;
  }
  if (terminate.type === 'iterationLimit' && iteration >= terminate.limit - 1) {
    endLoop(state, entry, 'iteration_limit');
    return false;
  }
  if (terminate.type === 'plateau') {
    const verdict = plateauVerdict(visibleVotes(state, config.id), terminate, iteration + 1);
    if (verdict === 'error') {
      endLoop(state, entry, 'failure');
      // The iteration is abandoned: no resume point, so the next resume runs it again.
      for (const earlier of state.thread) {
        const of = state.entryOf[earlier]?.loop;
        if (of?.config.id === config.id && of.iteration === iteration) state.abandoned.add(earlier);
      }
      return true;
    }
    if (verdict) {
      endLoop(state, entry, verdict);
      return false;
    }
  }
  ensureAfter(plan, at, iterationEntries(iteration + 1));
  return false;
};

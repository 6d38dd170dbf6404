import type { Execution } from './outcomes.js';
import type { Entry, Mark } from './plan.js';
import { laneOfExecution, type RunState } from './run-state.js';

// Resume and rollback in the reference interpreter: how a user step cuts the thread before the
// next process run. The rules are in interpret.ts's header.

/** Cuts each lane's thread after its newest execution the plan moved past. */
export const cutAtResumePoint = (state: RunState) => {
  const { executions, abandoned } = state;
  const movedPast = (index: number) => {
    const execution = executions[index] as Execution;
    return (
      !abandoned.has(index) && (execution.status !== 'failed' || execution.failureIgnored === true)
    );
  };
  const keep = new Map<string, number>();
  for (const index of state.thread) {
    if (movedPast(index)) keep.set(laneOfExecution(state, index), index);
  }
  state.thread = state.thread.filter(
    (index) => index <= (keep.get(laneOfExecution(state, index)) ?? -1),
  );
};

/**
 * Cuts the thread after the newest completed execution of a codon that completed on it: the
 * `target`-th of them (modulo their number), so any generated target names one.
 */
export const rollBack = (state: RunState, target: number) => {
  const { executions, entryOf, marks, ended } = state;
  const completed = state.thread.filter((index) => executions[index]?.status === 'completed');
  const codonIds = [...new Set(completed.map((index) => (executions[index] as Execution).codonId))];
  if (codonIds.length === 0) return;
  const codonId = codonIds[target % codonIds.length];
  const newest = completed.findLast((index) => executions[index]?.codonId === codonId) as number;
  const of = entryOf[newest] as Entry;
  // Into a branch: that branch is cut there and the block merges again; its sibling branches
  // keep what they did. After a resolver: the merge it resolved stands.
  const sibling = (lane: string) =>
    of.block?.branchId !== undefined &&
    lane !== of.lane &&
    lane.startsWith(`${of.block.config.id}/`);
  const resolved = of.block !== undefined && of.block.branchId === undefined;
  state.thread = state.thread.filter(
    (index) => index <= newest || sibling(laneOfExecution(state, index)),
  );
  const keep = (list: Mark[], kept: (mark: Mark) => boolean) =>
    list.splice(0, list.length, ...list.filter(kept));
  keep(marks, (mark) => mark.at <= newest || (resolved && mark.at === newest + 1));
  keep(ended, (mark) => mark.at <= newest || sibling(mark.id));
};

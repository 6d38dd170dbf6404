import { limitsOf, runAttempt } from './attempt.js';
import { conditionGate, skipByCondition, skipLoop } from './condition-gate.js';
import { afterCodon, endLoop } from './loops.js';
import type { Execution, Stop } from './outcomes.js';
import { type BlockHost, readyLanes } from './parallel.js';
import type { Entry } from './plan.js';
import { planIndex, planOf, type RunState } from './run-state.js';

// One step of a lane in the reference interpreter: its conditions, its budget gate, one attempt,
// and what its failure policy says. The rules are in interpret.ts's header.

type Gate =
  | { kind: 'run' }
  | { kind: 'loop-ended' }
  | { kind: 'branch-ended' }
  | { kind: 'stop'; stop: Stop };

const budgetGate = (state: RunState, host: BlockHost, entry: Entry): Gate => {
  const exhausted = limitsOf(state, entry).exhausted;
  if (!exhausted) return { kind: 'run' };
  const fail = exhausted.onExceeded === 'fail';
  if (exhausted.scope === 'loop' && entry.loop) {
    // With `fail` the run stops at the loop, which stays in the plan: a resume meets the same
    // spent budget again instead of going on after the loop as if it had ended well.
    if (fail) {
      endLoop(state, entry, 'failure', planOf(state, entry.codonId).length);
      return { kind: 'stop', stop: 'budget-failed' };
    }
    endLoop(state, entry, 'failure', planIndex(state, entry.codonId));
    return { kind: 'loop-ended' };
  }
  if (exhausted.scope === 'block' && entry.block) {
    if (fail) return { kind: 'stop', stop: 'budget-failed' };
    // Every unfinished branch ends where it is; a resolver does not start.
    if (entry.block.branchId !== undefined) {
      for (const lane of readyLanes(host, entry.block.config)) {
        state.ended.push({ id: lane, at: state.executions.length });
      }
    }
    return { kind: 'branch-ended' };
  }
  return { kind: 'stop', stop: fail ? 'budget-failed' : 'budget-exceeded' };
};

/** The retry attempt a codon's series starts at: an interrupted attempt goes on, not over. */
const seriesStart = (state: RunState, entry: Entry): number => {
  const newest = state.executions.findLast((execution) => execution.codonId === entry.codonId);
  return newest?.failure === 'interrupted' ? newest.retryAttempt : 1;
};

/**
 * One step of a lane: the codon's conditions and budget gate (not before an automatic retry),
 * then one attempt and what its failure policy says. A stop, or undefined to go on.
 */
export const step = (state: RunState, host: BlockHost, entry: Entry): Stop | undefined => {
  const { retries } = state;
  const retry = retries.get(entry.lane);
  if (!retry) {
    const skip = conditionGate(state, entry);
    if (skip === 'loop') {
      skipLoop(state, entry);
      return undefined;
    }
    if (skip === 'codon')
      return afterCodon(state, entry, skipByCondition(state, entry)) ? 'failed' : undefined;
    const gate = budgetGate(state, host, entry);
    if (gate.kind === 'stop') return gate.stop;
    if (gate.kind !== 'run') return undefined;
  }
  const retryAttempt = retry?.retryAttempt ?? seriesStart(state, entry);
  retries.delete(entry.lane);
  const index = runAttempt(state, entry, retryAttempt);
  const execution = state.executions[index] as Execution;
  if (execution.failure === 'interrupted') return 'interrupted';
  if (execution.status === 'failed') {
    const policy = entry.codon.onFailure;
    if (policy === 'ignore') execution.failureIgnored = true;
    else {
      const retriable = execution.failure === 'retriable-error';
      const maxAttempts = entry.codon.retryConfig?.maxAttempts ?? 3;
      if (policy === 'retry' && retriable && retryAttempt < maxAttempts) {
        retries.set(entry.lane, { entry, retryAttempt: retryAttempt + 1 });
        return undefined;
      }
      return 'failed';
    }
  }
  return afterCodon(state, entry, index) ? 'failed' : undefined;
};

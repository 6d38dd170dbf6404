import type { BudgetExceeded, ExecutionCodonEntry } from '@hankweave/types';
import { iterationTotals } from '../runtime/loop-progress.js';
import { emit, info, type RuntimeContext, transition } from '../runtime/runtime-context.js';
import { codonLimits } from './codon-budget.js';
import type { Exhausted } from './resolve-budget.js';

/** Whether the next codon may run: yes, no because its loop's budget is spent, or stop the hank. */
export type BudgetGate =
  | { kind: 'run' }
  | { kind: 'loop-ended' }
  /**
   * Stop the hank; `fail` when the spent container's `onExceeded` is `fail` (the run fails).
   * `hankSpent` when the hank's own budget is spent: every codon still running (a parallel
   * block's other branches) shared it, so it stops them too, and their records say so.
   */
  | { kind: 'stop'; fail: boolean; hankSpent?: BudgetExceeded };

/**
 * How the hank stops for a spent budget: the shutdown's reason and, when the hank's own budget is
 * spent, the budget stop every codon still running gets (it ends as `onExceeded` says, with
 * `budgetExceeded`, rather than as interrupted).
 */
export interface BudgetHalt {
  reason: 'budget exceeded' | 'budget failure';
  running?: { exceeded: BudgetExceeded; onExceeded: 'complete' | 'fail' };
}

/** The halt a `stop` gate asks for. */
export function budgetHalt(gate: Extract<BudgetGate, { kind: 'stop' }>): BudgetHalt {
  const onExceeded = gate.fail ? 'fail' : 'complete';
  return {
    reason: gate.fail ? 'budget failure' : 'budget exceeded',
    ...(gate.hankSpent ? { running: { exceeded: gate.hankSpent, onExceeded } } : {}),
  };
}

const spentMessage = (exhausted: Exhausted): string =>
  exhausted.currency === 'cost'
    ? `$${exhausted.used.toFixed(4)} of $${exhausted.limit}`
    : `${exhausted.used.toFixed(1)}s of ${exhausted.limit}s`;

/**
 * Checks, before a codon starts, that its containers have budget left (reference §1.7: later
 * codons get what remains). A spent loop budget ends the loop (`loop.iteration.completed` says
 * `failure`): the rest of its plan entries are dropped and the hank goes on after it, or, with
 * `onExceeded: fail`, the run fails at the loop, which stays in the plan. A spent hank budget
 * stops the hank, with the remaining codons not run (the run fails with `fail`). The caller then
 * shuts down (`budget exceeded` or `budget failure`), which ends the run.
 */
export function budgetGate(context: RuntimeContext, entry: ExecutionCodonEntry): BudgetGate {
  const exhausted = codonLimits(context, entry).exhausted;
  if (!exhausted) return { kind: 'run' };
  const plan = context.store.state.executionPlan;
  const index = plan.indexOf(entry);
  if (exhausted.scope === 'loop' && exhausted.id !== undefined) {
    const loopId = exhausted.id;
    const fail = exhausted.onExceeded === 'fail';
    const dropped = plan.slice(index).filter((later) => later.loopContext?.loopId === loopId);
    info(
      context,
      fail
        ? `Loop ${loopId} budget spent (${spentMessage(exhausted)}): the run fails at this loop (onExceeded: fail)`
        : `Loop ${loopId} budget spent (${spentMessage(exhausted)}): ${dropped.length} codon(s) not run, the loop ends`,
    );
    // With `fail` the loop stays in the plan: a resume meets the same spent budget again instead
    // of going on after the loop as if it had ended well.
    if (!fail) {
      transition(context, {
        type: 'ExecutionPlanUpdated',
        data: { executionPlan: plan.filter((candidate) => !dropped.includes(candidate)) },
      });
    }
    const iteration = entry.loopContext?.iteration ?? 0;
    emit(context, 'loop.iteration.completed', {
      loopId,
      iteration,
      ...iterationTotals(context, loopId, iteration),
      isFinal: true,
      terminationReason: 'failure',
    });
    return fail ? { kind: 'stop', fail: true } : { kind: 'loop-ended' };
  }
  const remaining = plan.length - Math.max(0, index);
  info(
    context,
    `Budget spent (${spentMessage(exhausted)}): ${remaining} codon(s) not run, the hank stops`,
  );
  const { currency, limit, used } = exhausted;
  return {
    kind: 'stop',
    fail: exhausted.onExceeded === 'fail',
    hankSpent: { currency, limit, used },
  };
}

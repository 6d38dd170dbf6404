import { executionThread } from '@hankweave/state';
import type { FailureReason } from '@hankweave/types';
import type { CodonAttempt } from '../codon/codon-attempt.js';
import { decideFailureAction, type FailureAction } from '../codon/failure-policy.js';
import { threadHistory } from '../session-tracking/thread-history.js';
import { type Expansion, expandAfterCodon } from './planner.js';

/** What an ending decides: the failure policy's answer, and the plan after the codon. */
export interface PlanDecision {
  /** For a failed codon that was not interrupted. */
  failureAction?: FailureAction;
  /** For a codon that completed, was skipped, or failed with `onFailure: "ignore"`. */
  expansion?: Expansion;
}

/** How an attempt ended, as far as the plan is concerned. */
export interface PlanEnding {
  status: 'completed' | 'failed' | 'skipped';
  failureReason?: FailureReason;
  interrupted: boolean;
  contextExceeded: boolean;
  budgetExceeded: boolean;
  /** Skipped because a `when` (its own or its loop's) did not hold. */
  conditionSkipped?: boolean;
  /** Skipped because its loop's `when` did not hold: the loop leaves the plan after iteration 0. */
  loopSkipped?: boolean;
}

/**
 * Decides, before the codon's terminal transition, what follows it: the failure policy for a
 * failure (its retry place is the attempt's durable one), and the loop's expansion or end for a
 * codon the plan moves past. The caller records the plan in the same state save as the terminal
 * transition, so no crash can separate a codon's end from its loop's decision.
 */
export function planAfterCodon(attempt: CodonAttempt, ending: PlanEnding): PlanDecision {
  if (ending.interrupted) return {};
  let failureAction: FailureAction | undefined;
  if (ending.status === 'failed') {
    const reason = ending.failureReason ?? {
      type: 'unknown' as const,
      retriable: false,
      message: 'failed',
    };
    failureAction = decideFailureAction(attempt.codon, reason, attempt.retryAttempt);
    if (failureAction.action !== 'continue') return { failureAction };
  }
  const { context, codonId, entry } = attempt;
  const loopId = entry.loopContext?.loopId;
  const expansion = expandAfterCodon(
    context.store.state.executionPlan,
    context.config,
    {
      codonId,
      contextExceeded: ending.contextExceeded,
      budgetExceeded: ending.budgetExceeded,
      ...(ending.loopSkipped ? { loopSkipped: true } : {}),
      iterationFailed:
        (ending.status === 'failed' || ending.conditionSkipped === true) &&
        earlierOfIterationIdle(attempt),
    },
    loopId === undefined ? [] : threadHistory(context, loopId),
  );
  return { ...(failureAction ? { failureAction } : {}), expansion };
}

/**
 * True when the newest thread execution of every other codon of this iteration did no work: it
 * failed, or its condition skipped it (the rule of the reference interpreter's `iterationFailed`).
 */
function earlierOfIterationIdle({ context, entry, codonId }: CodonAttempt): boolean {
  const loop = entry.loopContext;
  if (!loop) return false;
  const seen = new Set<string>([codonId]);
  for (const { codon } of executionThread(context.store.state).codons) {
    const of = codon.loopContext;
    if (of?.loopId !== loop.loopId || of.iteration !== loop.iteration || seen.has(codon.codonId)) {
      continue;
    }
    seen.add(codon.codonId);
    const skippedByCondition = codon.status === 'skipped' && codon.skippedBy === 'condition';
    if (codon.status !== 'failed' && !skippedByCondition) return false;
  }
  return true;
}

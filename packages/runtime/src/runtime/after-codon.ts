import { executionThread } from '@hankweave/state';
import type { ExecutionCodonEntry } from '@hankweave/types';
import { emitArchiveReport } from '../archive/archive-after-codon.js';
import { emitBudgetSummary } from '../budget/budget-summary.js';
import type { CodonRunOutcome } from '../codon/codon-run-outcome.js';
import { earlierAttemptsCost } from '../codon/retry-series.js';
import { eventBranch } from '../parallel/block-lanes.js';
import type { Expansion } from '../plan/planner.js';
import { threadHistory } from '../session-tracking/thread-history.js';
import type { Decision } from './decision.js';
import { iterationTotals } from './loop-progress.js';
import { endRun } from './runs.js';
import { emit, info, type RuntimeContext, reportError } from './runtime-context.js';
import { emitStateSnapshot } from './state-snapshot.js';

/**
 * What follows a codon attempt (reference §5.5 steps 11–14): `codon.completed` and
 * `state.snapshot`, then what the ending decided (already in state with the codon's terminal
 * transition, see `planAfterCodon`): the loop's iteration end for completed, skipped and ignored
 * codons, or the failure policy (ignore, retry with backoff, stay active, or fail the run).
 */
export function decideAfterCodon(
  context: RuntimeContext,
  input: {
    codonId: string;
    runId: string;
    outcome: CodonRunOutcome;
    headless: boolean;
  },
): Decision {
  const { codonId, outcome, runId } = input;
  const { failureAction, expansion } = outcome.decision;
  // A retried codon reports what all its tries cost (reference §5.5 step 10).
  const earlier =
    outcome.status === 'skipped'
      ? 0
      : earlierAttemptsCost(context.store.state, codonId, outcome.retryAttempt);
  emit(context, 'codon.completed', {
    codonId,
    success: outcome.status === 'completed',
    cost: outcome.status === 'skipped' ? 0 : outcome.cost + earlier,
    duration: outcome.durationMs,
    exitStatus: outcome.exitStatus,
    ...(outcome.failureReason ? { failureReason: outcome.failureReason } : {}),
    ...(failureAction?.action === 'continue' ? { failureIgnored: true } : {}),
    ...(outcome.budgetExceeded ? { budgetExceeded: outcome.budgetExceeded } : {}),
    ...(outcome.condition
      ? { skippedBy: 'condition' as const, skipReason: outcome.condition.reason }
      : {}),
    ...eventBranch(context.store.state, codonId),
  });
  if (outcome.condition) info(context, `Codon ${codonId} skipped: ${outcome.condition.reason}`);
  emitStateSnapshot(context, false);
  emitArchiveReport(context, outcome.archives?.codon);
  if (outcome.interrupted) return { kind: 'idle' };
  if (outcome.status !== 'failed') return afterExpansion(context, runId, expansion, outcome);
  switch (failureAction?.action) {
    case 'continue':
      info(context, `Codon ${codonId} failed, continuing (onFailure=ignore)`);
      return afterExpansion(context, runId, expansion, outcome);
    case 'retry':
      info(
        context,
        `Retrying codon ${codonId} (attempt ${failureAction.attempt}/${failureAction.maxAttempts}) in ${failureAction.delayMs}ms`,
      );
      return { kind: 'retry', delayMs: failureAction.delayMs };
    case 'stay-active':
      if (input.headless) {
        emitBudgetSummary(context);
        endRun(context, runId, 'failed', 'codon failure');
        return { kind: 'shutdown' };
      }
      emit(context, 'server.idle', {
        reason: 'codon-completed',
        message: `Codon ${codonId} failed (${outcome.failureReason?.message}). Use 'codon.redo' to retry it, or roll back.`,
      });
      return { kind: 'idle' };
    default:
      emitBudgetSummary(context);
      endRun(context, runId, 'failed', 'codon failure');
      return { kind: 'shutdown' };
  }
}

/**
 * After the plan expansion (recorded with the codon's end): `loop.iteration.completed` when an
 * iteration ended, then the next codon, or, when a plateau loop's agent reported an error
 * decision, the end of the run (failed; the next start runs the iteration again).
 */
function afterExpansion(
  context: RuntimeContext,
  runId: string,
  expansion: Expansion | undefined,
  outcome: CodonRunOutcome,
): Decision {
  const ended = expansion?.iterationEnded;
  if (ended) announceIterationEnd(context, ended, outcome);
  if (!ended?.decisionError) return { kind: 'next' };
  const reason = threadHistory(context, ended.loopId).findLast(
    (record) => record.iteration === ended.iteration + 1,
  )?.reasoning;
  reportError(
    context,
    `Loop ${ended.loopId} stopped: its agent reported an error in iteration ${ended.iteration}${reason ? ` (${reason})` : ''}. Fix the cause, then run again to retry the iteration, or roll back.`,
    { severity: 'codon', code: 'LOOP_DECISION_ERROR' },
  );
  emitBudgetSummary(context);
  endRun(context, runId, 'failed', `loop ${ended.loopId}: error decision`);
  return { kind: 'shutdown' };
}

/** `loop.iteration.completed`, and at a loop's end its archive and its session files. */
function announceIterationEnd(
  context: RuntimeContext,
  ended: NonNullable<Expansion['iterationEnded']>,
  outcome: CodonRunOutcome,
): void {
  if (ended.isFinal) {
    emitArchiveReport(context, outcome.archives?.loop);
    void context.sessions.loopEnded(
      ended.loopId,
      ended.iteration + 1,
      ended.decisionError ? 'error' : (ended.terminationReason ?? 'ended'),
      ended.terminationReason === 'failure',
    );
  }
  emit(context, 'loop.iteration.completed', {
    loopId: ended.loopId,
    iteration: ended.iteration,
    ...iterationTotals(context, ended.loopId, ended.iteration),
    isFinal: ended.isFinal,
    ...(ended.terminationReason ? { terminationReason: ended.terminationReason } : {}),
  });
}

/** A retry run continues after the plan entry before the codon, keeping its session. */
export function retrySource(
  context: RuntimeContext,
  entry: ExecutionCodonEntry,
  runId: string,
): { runId: string; afterCodon: string | null; checkpointSha: string } {
  const plan = context.store.state.executionPlan;
  const previous = plan[plan.indexOf(entry) - 1];
  if (!previous) return { runId, afterCodon: null, checkpointSha: '' };
  const record = executionThread(context.store.state).codons.find(
    ({ codon }) => codon.codonId === previous.codonId,
  )?.codon as { completionCheckpoint?: string } | undefined;
  return { runId, afterCodon: previous.codonId, checkpointSha: record?.completionCheckpoint ?? '' };
}

/**
 * The source of a continuation run opened inside a parallel block: after the newest record on
 * the thread, so that every branch's records stay on it (the previous plan entry may be another
 * branch's codon, and cutting there would undo that branch's later work). It continues the
 * thread's own run, not the run that holds the record: after a rollback into a branch, that run
 * also holds records the thread undid.
 */
export function blockRetrySource(
  context: RuntimeContext,
  runId: string,
): { runId: string; afterCodon: string | null; checkpointSha: string } {
  const thread = executionThread(context.store.state);
  const newest = thread.codons[0];
  return newest
    ? { runId: thread.runId ?? newest.runId, afterCodon: newest.codon.codonId, checkpointSha: '' }
    : { runId, afterCodon: null, checkpointSha: '' };
}

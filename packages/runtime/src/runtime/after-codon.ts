import { executionThread } from '@hankweave/state';
import { type ExecutionCodonEntry, isTerminalCodonStatus } from '@hankweave/types';
import { emitArchiveReport } from '../archive/archive-after-codon.js';
import { emitBudgetSummary } from '../budget/budget-summary.js';
import { decideFailureAction } from '../codon/failure-policy.js';
import type { CodonRunOutcome } from '../codon/run-codon.js';
import { type Expansion, entryCodon, expandAfterCodon } from '../plan/planner.js';
import { iterationTotals } from './loop-progress.js';
import { endRun } from './runs.js';
import { emit, info, type RuntimeContext, reportError, transition } from './runtime-context.js';
import { emitStateSnapshot } from './state-snapshot.js';

/** What the driver does after a codon: run the next one, wait, stop, or retry after a delay. */
export type Decision =
  | { kind: 'next' }
  | { kind: 'idle' }
  | { kind: 'shutdown' }
  | { kind: 'retry'; delayMs: number };

/** Attempts and accumulated cost of a codon being retried (in memory, as in the original). */
export type RetryAttempts = Map<string, { attempts: number; cost: number }>;

/**
 * What follows a codon attempt (reference §5.5 steps 11–14): `codon.completed` and
 * `state.snapshot`, then the plan expansion for completed, skipped and ignored codons, or the
 * failure policy (ignore, retry with backoff, stay active, or fail the run).
 */
export function decideAfterCodon(
  context: RuntimeContext,
  input: {
    codonId: string;
    entry: ExecutionCodonEntry;
    runId: string;
    outcome: CodonRunOutcome;
    retryAttempts: RetryAttempts;
    headless: boolean;
  },
): Decision {
  const { codonId, outcome, retryAttempts, runId } = input;
  const retry = retryAttempts.get(codonId) ?? { attempts: 0, cost: 0 };
  const failureAction =
    outcome.status === 'failed' && outcome.failureReason && !outcome.interrupted
      ? decideFailureAction(entryCodon(input.entry), outcome.failureReason, retry.attempts + 1)
      : undefined;
  emit(context, 'codon.completed', {
    codonId,
    success: outcome.status === 'completed',
    cost: outcome.status === 'skipped' ? 0 : outcome.cost + retry.cost,
    duration: outcome.durationMs,
    exitStatus: outcome.exitStatus,
    ...(outcome.failureReason ? { failureReason: outcome.failureReason } : {}),
    ...(failureAction?.action === 'continue' ? { failureIgnored: true } : {}),
    ...(outcome.budgetExceeded ? { budgetExceeded: outcome.budgetExceeded } : {}),
  });
  emitStateSnapshot(context, false);
  emitArchiveReport(context, outcome.archives?.codon);
  if (outcome.interrupted) return { kind: 'idle' };
  if (outcome.status !== 'failed') {
    retryAttempts.delete(codonId);
    return afterExpansion(context, runId, expandPlan(context, codonId, outcome));
  }
  switch (failureAction?.action) {
    case 'continue':
      info(context, `Codon ${codonId} failed, continuing (onFailure=ignore)`);
      return afterExpansion(context, runId, expandPlan(context, codonId, outcome));
    case 'retry':
      retryAttempts.set(codonId, { attempts: retry.attempts + 1, cost: retry.cost + outcome.cost });
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
 * After the plan expansion: the next codon, or, when a plateau loop's agent reported an error
 * decision, the end of the run (failed; the next start rolls back to the last success and runs
 * the iteration again).
 */
function afterExpansion(
  context: RuntimeContext,
  runId: string,
  ended: Expansion['iterationEnded'],
): Decision {
  if (!ended?.decisionError) return { kind: 'next' };
  const reason = context.sessions
    .history(ended.loopId)
    .findLast((record) => record.iteration === ended.iteration + 1)?.reasoning;
  reportError(
    context,
    `Loop ${ended.loopId} stopped: its agent reported an error in iteration ${ended.iteration}${reason ? ` (${reason})` : ''}. Fix the cause, then run again to retry the iteration, or roll back.`,
    { severity: 'codon', code: 'LOOP_DECISION_ERROR' },
  );
  emitBudgetSummary(context);
  endRun(context, runId, 'failed', `loop ${ended.loopId}: error decision`);
  return { kind: 'shutdown' };
}

/** Lazy loop expansion after a codon, with `loop.iteration.completed` when an iteration ends. */
function expandPlan(
  context: RuntimeContext,
  codonId: string,
  outcome: CodonRunOutcome,
): Expansion['iterationEnded'] {
  const plan = context.store.state.executionPlan;
  const loopId = context.store.state.executionPlan.find((entry) => entry.codonId === codonId)
    ?.loopContext?.loopId;
  const expansion = expandAfterCodon(
    plan,
    context.config,
    {
      codonId,
      contextExceeded: outcome.contextExceeded,
      failed: outcome.status === 'failed',
      ...(outcome.budgetExceeded ? { budgetExceeded: true } : {}),
    },
    loopId === undefined ? [] : context.sessions.history(loopId),
  );
  const ids = (entries: readonly ExecutionCodonEntry[]) =>
    entries.map((entry) => entry.codonId).join('\n');
  if (ids(expansion.plan) !== ids(plan)) {
    transition(context, { type: 'ExecutionPlanUpdated', data: { executionPlan: expansion.plan } });
  }
  const ended = expansion.iterationEnded;
  if (ended) {
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
  return ended;
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
 * Re-applies the plan expansion of the thread's newest codon, for a run that stopped (a crash, a
 * kill -9) between that codon's terminal transition and the expansion that follows it: the next
 * loop iteration would otherwise be missing and the loop would end early. Expansion is
 * idempotent, so this changes the plan only when that step was lost.
 */
export function repairLoopExpansion(context: RuntimeContext): void {
  const state = context.store.state;
  const newest = executionThread(state).codons[0]?.codon;
  if (!newest || !isTerminalCodonStatus(newest.status)) return;
  const entry = state.executionPlan.find((candidate) => candidate.codonId === newest.codonId);
  const loopId = entry?.loopContext?.loopId;
  if (!entry || loopId === undefined) return;
  if (newest.status === 'failed' && entryCodon(entry).onFailure !== 'ignore') return;
  const record = newest as { contextExceeded?: boolean; budgetExceeded?: unknown };
  const expansion = expandAfterCodon(
    state.executionPlan,
    context.config,
    {
      codonId: newest.codonId,
      contextExceeded: record.contextExceeded === true,
      failed: newest.status === 'failed',
      ...(record.budgetExceeded ? { budgetExceeded: true } : {}),
    },
    context.sessions.history(loopId),
  );
  const ids = (entries: readonly ExecutionCodonEntry[]) =>
    entries.map((candidate) => candidate.codonId).join('\n');
  if (ids(expansion.plan) === ids(state.executionPlan)) return;
  info(
    context,
    `The plan after ${newest.codonId} was not recorded before the last run stopped; applying it again`,
  );
  transition(context, { type: 'ExecutionPlanUpdated', data: { executionPlan: expansion.plan } });
}

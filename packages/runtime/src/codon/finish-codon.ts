import type { AgentOutcome } from '@hankweave/harness';
import {
  type ActiveCodonStatus,
  type BudgetExceeded,
  type CheckpointType,
  type CodonStatus,
  type ExitStatus,
  type FailureReason,
  hankLoops,
  isTerminalCodonStatus,
} from '@hankweave/types';
import { archiveAfterCodon } from '../archive/archive-after-codon.js';
import { describeExceeded } from '../budget/budget-watchdog.js';
import { RuntimeError } from '../errors.js';
import { copyOutputsOfAttempt } from '../outputs/codon-outputs.js';
import type { ConditionSkip } from '../plan/condition-gate.js';
import { planAfterCodon } from '../plan/plan-after-codon.js';
import { samePlan } from '../plan/planner.js';
import { info, reportError, transition } from '../runtime/runtime-context.js';
import { afterAgent } from '../session-tracking/codon-session.js';
import { type CodonAttempt, type CodonMove, moveCodon } from './codon-attempt.js';
import type { StopReason } from './codon-control.js';
import type { CodonRunOutcome } from './codon-run-outcome.js';
import type { AgentRun } from './run-agent.js';
import { takeCheckpoint } from './take-checkpoint.js';

/** How a codon attempt ends, before its checkpoint is taken. */
export type Ending = {
  exitCode: number;
  exitStatus: ExitStatus;
  outcome?: AgentOutcome;
  /** The budget the watchdog found crossed (reference §4.8). */
  budgetExceeded?: BudgetExceeded;
  /** Set when a stop request (a skip, a budget, a shutdown) decided this ending. */
  byStop?: true;
} & (
  | { status: 'completed' }
  | { status: 'failed'; failureReason: FailureReason }
  | { status: 'skipped'; condition?: ConditionSkip }
);

/** The ending of a codon whose `when` (or its loop's) did not hold: skipped before anything ran. */
export const conditionEnding = (condition: ConditionSkip): Ending => ({
  status: 'skipped',
  condition,
  exitCode: 0,
  exitStatus: { type: 'success' },
});

/** A failure before or outside the agent. */
export const failedEnding = (failureReason: FailureReason, exitCode = 1): Ending => ({
  status: 'failed',
  failureReason,
  exitCode,
  exitStatus: { type: 'error', code: exitCode },
});

/**
 * The ending a stop request gives: skipped, or failed as force-stopped or interrupted, or the
 * budget's own ending. `from` is the codon's status when it ends.
 */
export function stoppedEnding(
  reason: StopReason,
  from: CodonStatus,
  outcome?: AgentOutcome,
): Ending {
  return { ...endingOfStop(beforeItsAgent(reason, from), outcome), byStop: true };
}

/**
 * A spent hank budget stops a parallel block's other branches, and one of them may not have an
 * agent at work yet (its rig runs, or its agent has not reported its session): it spent nothing
 * and its agent did nothing, so it cannot complete as a budget stop does (a codon completes only
 * from a running agent). It ends as a codon the stop interrupted, and a resume runs it again, as
 * the budget gate would have left it not run had it come a moment later.
 */
function beforeItsAgent(reason: StopReason, from: CodonStatus): StopReason {
  const agentAtWork = from === 'running' || from === 'completing-sentinels';
  return reason.kind === 'budget' && reason.onExceeded === 'complete' && !agentAtWork
    ? { kind: 'shutdown', cause: 'budget exceeded' }
    : reason;
}

function endingOfStop(reason: StopReason, outcome?: AgentOutcome): Ending {
  const exitStatus: ExitStatus = { type: 'killed', signal: 'SIGTERM' };
  const killed = (failureReason: FailureReason): Ending => ({
    status: 'failed',
    exitCode: -1,
    exitStatus,
    failureReason,
    ...(outcome ? { outcome } : {}),
  });
  switch (reason.kind) {
    case 'force-stop':
      return killed({
        type: 'unknown',
        retriable: true,
        message: `Force stopped: ${reason.reason}`,
      });
    case 'shutdown':
      // A stop, not a fault: flagged, with the type the original's readers know.
      return killed({
        type: 'unknown',
        retriable: true,
        message: interruptionMessage(reason.cause),
        interrupted: true,
      });
    case 'skip':
      return { status: 'skipped', exitCode: -1, exitStatus, ...(outcome ? { outcome } : {}) };
    case 'budget':
      // The agent was stopped on purpose: exit 0 with the budget flag (reference §4.8), or a
      // failure that no retry can cure.
      return reason.onExceeded === 'complete'
        ? {
            status: 'completed',
            exitCode: 0,
            exitStatus: { type: 'success' },
            budgetExceeded: reason.exceeded,
            ...(outcome ? { outcome } : {}),
          }
        : {
            status: 'failed',
            exitCode: 1,
            exitStatus,
            budgetExceeded: reason.exceeded,
            failureReason: {
              type: 'unknown',
              retriable: false,
              message: `Budget exceeded: ${describeExceeded(reason.exceeded)}`,
            },
            ...(outcome ? { outcome } : {}),
          };
  }
}

/**
 * The failure message of a codon a shutdown interrupted, naming what stopped it. It starts with
 * `Interrupted` as the original's does, so readers of either tell it from a fault.
 */
export function interruptionMessage(cause: string | undefined): string {
  switch (cause) {
    case 'SIGINT':
      return 'Interrupted by Ctrl-C (SIGINT) while the codon was active';
    case 'SIGTERM':
      return 'Interrupted by SIGTERM while the codon was active';
    case 'client request':
      return 'Interrupted: a client asked the server to shut down while the codon was active';
    // The causes a parallel block's other branches meet: the run stopped beside them.
    case 'codon failure':
      return 'Interrupted: another branch failed, so the run stopped while the codon was active';
    case 'budget exceeded':
    case 'budget failure':
      return 'Interrupted: a spent budget stopped the run while the codon was active';
    case 'error':
      return 'Interrupted: a runtime error stopped the run while the codon was active';
    default:
      return 'Interrupted: the server shut down while the codon was active';
  }
}

/** The final status after the agent ran, by priority (reference §5.5 step 8). */
export function agentEnding(attempt: CodonAttempt, run: AgentRun): Ending {
  const { outcome, contextExceeded } = run;
  const exitCode = outcome.exitCode ?? -1;
  const exitStatus: ExitStatus = outcome.signal
    ? { type: 'killed', signal: outcome.signal }
    : exitCode === 0
      ? { type: 'success' }
      : { type: 'error', code: exitCode };
  const stop = attempt.control.stopReason;
  if (stop) return stoppedEnding(stop, attempt.control.status, outcome);
  if (exitCode === 0 && outcome.resultReceived && !outcome.failureReason && !contextExceeded) {
    return { status: 'completed', exitCode: 0, exitStatus, outcome };
  }
  if (contextExceeded && inContextLoop(attempt)) {
    info(
      attempt.context,
      `Codon ${attempt.codonId} exceeded its context window; its loop ends here`,
    );
    return { status: 'completed', exitCode: 0, exitStatus, outcome };
  }
  const failureReason: FailureReason =
    outcome.failureReason ??
    (contextExceeded
      ? {
          type: 'api-error',
          retriable: false,
          message: `Codon ${attempt.codon.id} exceeded the model's context window`,
        }
      : {
          type: 'api-error',
          retriable: outcome.sessionId !== undefined,
          message: outcome.resultReceived
            ? `Codon process exited without success (exit code ${exitCode})`
            : `Codon process exited without a result message (exit code ${exitCode})`,
        });
  return {
    status: 'failed',
    exitCode: exitCode === 0 ? 1 : exitCode,
    exitStatus,
    failureReason,
    outcome,
  };
}

/**
 * The end of an attempt (reference §5.5 steps 8–10): the final cost, the sentinels' last work in
 * `completing-sentinels`, the checkpoint (`completed`, `error`, `skipped`, or `exit` when a
 * shutdown interrupted the codon) before the terminal transition, then that transition.
 */
export async function finishCodon(
  attempt: CodonAttempt,
  ending: Ending,
  agent?: AgentRun,
): Promise<CodonRunOutcome> {
  const { context, control, runId, codonId } = attempt;
  const failedDuring = control.status;
  if (isTerminalCodonStatus(failedDuring)) {
    throw new RuntimeError(
      'RUNTIME_INTERNAL',
      `Codon ${codonId} is already ${failedDuring} and cannot end again; this is a bug`,
      { details: { runId, codonId } },
    );
  }
  const live = failedDuring === 'running' || failedDuring === 'completing-sentinels';
  if (live && agent) {
    transition(context, {
      type: 'CodonFinalCostSet',
      data: { runId, codonId, finalCost: agent.finalCost, finalTokens: agent.finalTokens },
    });
  }
  const sentinelCount = context.sentinels.loadedCount();
  if (sentinelCount > 0) {
    // The sentinels finish their work and are unloaded before the terminal transition, so their
    // final counters land in `sentinels.loaded` just before it becomes `sentinels.executed`.
    if (failedDuring === 'running') {
      moveCodon(attempt, { to: 'completing-sentinels', metadata: { sentinelCount } });
    }
    info(context, `Completing work for ${sentinelCount} sentinel(s)...`);
    // Every event of the codon reaches the sentinels through the bus: deliver the ones still
    // waiting for durability before the sentinels take their last look.
    await context.bus.settled();
    await context.sentinels.unload('codon-complete');
    info(context, `Sentinel work completed (${sentinelCount} sentinel(s))`);
  }
  // A codon its condition skipped ran nothing, so a shutdown cannot interrupt it: it stays a skip,
  // with its checkpoint and its plan decision (a branch codon whose condition is read while a
  // sibling's failure stops the run would otherwise be recorded skipped with its loop's next
  // iteration never planned).
  // A budget stop that came before the codon's agent was at work ends it as interrupted too.
  const interruptedEnding = ending.status === 'failed' && ending.failureReason.interrupted === true;
  const interrupted =
    (control.stopReason?.kind === 'shutdown' || interruptedEnding) &&
    ending.status !== 'completed' &&
    !(ending.status === 'skipped' && ending.condition !== undefined);
  const checkpointType: CheckpointType =
    ending.status === 'completed'
      ? 'completed'
      : ending.status === 'skipped'
        ? 'skipped'
        : interrupted
          ? 'exit'
          : 'error';
  let final = ending;
  let checkpointSha: string | undefined;
  try {
    checkpointSha = await takeCheckpoint(context, attempt.hint, {
      type: checkpointType,
      runId,
      codonId,
      codonName: attempt.codon.name,
      durationMs: Date.now() - attempt.startedMs,
      patterns: attempt.patterns,
    });
  } catch (error) {
    const message = (error as Error).message;
    reportError(context, `Checkpoint ${checkpointType}:${codonId} failed: ${message}`, {
      severity: 'codon',
      codon: codonId,
    });
    if (ending.status === 'completed') {
      final = {
        ...ending,
        status: 'failed',
        failureReason: {
          type: 'unknown',
          retriable: false,
          message: `The completion checkpoint failed: ${message}`,
        },
      };
    }
  }
  // The loop's history is on disk before the terminal transition: a crash in between re-runs
  // the codon (its record is replaced), and once the codon reads completed, the loop's history
  // already says whether it ends.
  if (!context.abandoned.aborted) await afterAgent(attempt, final.status, ending.outcome);
  // What the agent printed after the runtime stopped it (a skip, a budget, a shutdown) decides
  // nothing: whether its context overflowed then depends only on timing. An agent that ended on
  // its own before the stop came (a parallel sibling's failure stopping the run during this
  // codon's checkpoint) keeps its overflow: its ending says so, and so must its record.
  const contextExceeded = ending.byStop ? false : (agent?.contextExceeded ?? false);
  const decision = planAfterCodon(attempt, {
    status: final.status,
    ...(final.status === 'failed' ? { failureReason: final.failureReason } : {}),
    interrupted,
    contextExceeded,
    budgetExceeded: !!final.budgetExceeded,
    conditionSkipped: final.status === 'skipped' && final.condition !== undefined,
    loopSkipped:
      final.status === 'skipped' && final.condition !== undefined && final.condition.of !== 'codon',
  });
  // One synchronous turn: the terminal transition and the plan it decides go into the same
  // state save, so a crash can never leave a finished codon whose loop decision is lost.
  moveCodon(
    attempt,
    terminalMove(
      final,
      failedDuring,
      contextExceeded,
      checkpointType === 'exit' ? undefined : checkpointSha,
    ),
  );
  const expanded = decision.expansion?.plan;
  if (expanded && !samePlan(expanded, context.store.state.executionPlan)) {
    transition(context, { type: 'ExecutionPlanUpdated', data: { executionPlan: expanded } });
  }
  // outputFiles are copied before archiveOnSuccess moves files away (reference §5.5 step 12); a
  // failed copy leaves them in place and fails the run after codon.completed.
  const outputFailure = await copyOutputsOfAttempt(attempt, final.status);
  const archives = outputFailure
    ? undefined
    : await archiveAfterCodon(
        attempt,
        final.status,
        checkpointType === 'exit' ? undefined : checkpointSha,
        decision.expansion?.iterationEnded?.isFinal === true,
      );
  const record = context.store.state.runs
    .find((run) => run.runId === runId)
    ?.codons.findLast((candidate) => candidate.codonId === codonId);
  // The agent's own cost of this attempt (sentinel costs are counted apart).
  const cost =
    record?.status === 'completed'
      ? record.finalCost
      : record?.status === 'failed' || record?.status === 'skipped'
        ? (record.partialCost ?? 0)
        : 0;
  return {
    codonId,
    status: final.status,
    ...(final.status === 'failed' ? { failureReason: final.failureReason, failedDuring } : {}),
    contextExceeded,
    cost,
    durationMs: Date.now() - attempt.startedMs,
    exitStatus: final.exitStatus,
    interrupted,
    ...(final.budgetExceeded ? { budgetExceeded: final.budgetExceeded } : {}),
    ...(final.status === 'skipped' && final.condition ? { condition: final.condition } : {}),
    ...(archives ? { archives } : {}),
    ...(outputFailure ? { outputFailure } : {}),
    retryAttempt: attempt.retryAttempt,
    decision,
  };
}

/** The terminal transition of an ending, with the metadata its status needs. */
function terminalMove(
  ending: Ending,
  during: ActiveCodonStatus,
  contextExceeded: boolean,
  checkpointSha: string | undefined,
): CodonMove {
  const common = {
    exitCode: ending.exitCode,
    resultMessageReceived: ending.outcome?.resultReceived ?? false,
    contextExceeded,
    ...(checkpointSha ? { checkpointSha } : {}),
    ...(ending.budgetExceeded ? { budgetExceeded: ending.budgetExceeded } : {}),
  };
  switch (ending.status) {
    case 'completed':
      return { to: 'completed', metadata: common };
    case 'failed':
      return {
        to: 'failed',
        metadata: { ...common, failedDuring: during, failureReason: ending.failureReason },
      };
    case 'skipped': {
      const condition = ending.condition
        ? {
            skippedBy: 'condition' as const,
            skipReason: ending.condition.reason,
            conditionOf: ending.condition.of,
          }
        : {};
      return { to: 'skipped', metadata: { ...common, skippedDuring: during, ...condition } };
    }
  }
}

function inContextLoop({ context, entry }: CodonAttempt): boolean {
  const loopId = entry.loopContext?.loopId;
  return hankLoops(context.config).some(
    (item) => item.id === loopId && item.terminateOn.type === 'contextExceeded',
  );
}

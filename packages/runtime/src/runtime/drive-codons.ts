import { sleep } from '@hankweave/durable-io';
import { currentRun, executionThread } from '@hankweave/state';
import type { ExecutionCodonEntry } from '@hankweave/types';
import { type BudgetGate, type BudgetHalt, budgetGate, budgetHalt } from '../budget/budget-gate.js';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import type { BlockHost, BlockOutcome } from '../parallel/block-host.js';
import { blockIdOf } from '../parallel/block-lanes.js';
import { runBlock } from '../parallel/run-block.js';
import { type ConditionSkip, conditionGate } from '../plan/condition-gate.js';
import { blockRetrySource } from './after-codon.js';
import { type ExecuteHost, executeCodon } from './execute-codon.js';
import type { ShutdownReason } from './exit-code.js';
import { endRun, startRun } from './runs.js';
import { emit, info, type RuntimeContext } from './runtime-context.js';

/** What to run: a codon (default the next one), with or without its rig, once or onwards. */
export interface DriveRequest {
  codonId?: string;
  skipPreCommands?: boolean;
  isAutoRetry?: boolean;
  /** Run this codon only, then wait for a command. */
  single?: boolean;
}

/**
 * What the drive loop needs of the runtime that owns it (its phase and state stay there), and
 * what each codon attempt needs (see `execute-codon.ts`).
 */
export interface DriveHost extends ExecuteHost {
  readonly context: RuntimeContext;
  readonly hint: CheckpointHint;
  readonly autostart: boolean;
  /** Aborted when the runtime begins to stop: cuts retry pauses short. */
  readonly stopSignal: AbortSignal;
  /** True while the runtime is in the `driving` phase. */
  driving(): boolean;
  /** Back to `idle` when driving ends (a shutdown, if one began, keeps its phase). */
  settle(): void;
  /** Whether `codonId`'s next run skips its rig (a rig-setup rollback target); asked once. */
  takeSkipRig(codonId: string): boolean;
  /**
   * Begins a shutdown, not awaited: the shutdown waits for this very drive to end. `running`:
   * how a spent hank budget stops the codons still running.
   */
  shutdown(reason: ShutdownReason, running?: BudgetHalt['running']): void;
}

/**
 * Runs codons in plan order from `first` while the runtime drives: gates each (condition, then
 * budget), runs it or its parallel block, and follows the decision (retry, next, idle, shutdown).
 */
export async function driveCodons(host: DriveHost, first: DriveRequest): Promise<void> {
  let request: DriveRequest | undefined = first;
  while (host.driving()) {
    const codonId: string | null = request?.codonId ?? nextCodonId(host.context);
    if (!codonId) {
      allDone(host);
      return;
    }
    const blockId = blockIdOf(planEntry(host.context, codonId));
    if (blockId !== undefined) {
      // A parallel block runs as one step: its branches, then its merge.
      const outcome = await runBlock(blockHost(host), blockId);
      request = undefined;
      if (afterBlock(host, outcome, first)) continue;
      return;
    }
    let skip: ConditionSkip | undefined;
    if (!request?.isAutoRetry) {
      // Conditions first: a codon that will not run spends nothing, so no budget stops it.
      skip = await conditionGateOf(host.context, codonId);
      // The gate reads files: a shutdown that began meanwhile starts nothing more.
      if (!host.driving()) return;
    }
    if (!request?.isAutoRetry && !skip) {
      const gate = budgetGateOf(host.context, codonId);
      if (gate.kind === 'stop') {
        const halt = budgetHalt(gate);
        host.shutdown(halt.reason, halt.running);
        return;
      }
      if (gate.kind === 'loop-ended') {
        request = undefined;
        continue;
      }
    }
    const skipPreCommands = request?.skipPreCommands ?? host.takeSkipRig(codonId);
    const decision = await executeCodon(host, host.context, host.hint, codonId, {
      skipPreCommands,
      isAutoRetry: request?.isAutoRetry ?? false,
      ...(skip ? { skip } : {}),
    });
    request = undefined;
    switch (decision.kind) {
      case 'retry':
        await sleep(decision.delayMs, host.stopSignal);
        request = { codonId, skipPreCommands: true, isAutoRetry: true };
        continue;
      case 'shutdown':
        host.shutdown('codon failure');
        return;
      case 'idle':
        host.settle();
        return;
      case 'next':
        if (pausesAfterEach(host, first)) {
          pause(host, `Codon ${codonId} finished`);
          return;
        }
    }
  }
}

/** The next codon of the plan on the execution thread, or null at its end. */
function nextCodonId(context: RuntimeContext): string | null {
  return executionThread(context.store.state).nextCodonId;
}

/** After a block: true to go on driving; otherwise the drive ends (idle, or stopping). */
function afterBlock(host: DriveHost, outcome: BlockOutcome, first: DriveRequest): boolean {
  if (!host.driving()) return false;
  if (outcome.kind === 'stopped') return false;
  if (outcome.kind === 'idle') {
    host.settle();
    return false;
  }
  if (pausesAfterEach(host, first)) {
    pause(host, 'Parallel block finished');
    return false;
  }
  return true;
}

/** Without autostart, or for a single codon, the drive waits for a command after each step. */
function pausesAfterEach(host: DriveHost, first: DriveRequest): boolean {
  return !host.autostart || first.single === true;
}

/** Ends the drive after a step: all done, or idle until `codon.next`. */
function pause(host: DriveHost, what: string): void {
  if (!nextCodonId(host.context)) {
    allDone(host);
    return;
  }
  host.settle();
  emit(host.context, 'server.idle', {
    reason: 'codon-completed',
    message: `${what}. Use 'codon.next' to continue.`,
  });
}

function allDone(host: DriveHost): void {
  if (host.autostart) {
    info(host.context, 'All codons completed successfully. Server shutting down.');
    host.shutdown('all codons completed');
  } else {
    host.settle();
    emit(host.context, 'server.idle', {
      reason: 'all-codons-completed',
      message: 'All codons completed. Server remains active.',
    });
  }
}

/** What a parallel block borrows from the runtime (see `parallel/run-block.ts`). */
function blockHost(host: DriveHost): BlockHost {
  return {
    context: host.context,
    hint: host.hint,
    stopSignal: host.stopSignal,
    driving: () => host.driving(),
    execute: (context, hint, entry, options) =>
      executeCodon(host, context, hint, entry.codonId, options),
    budgetGate: (context, entry) => budgetGate(context, entry),
    halt: (reason, running) => host.shutdown(reason, running),
    openContinuation: async () => {
      const run = currentRun(host.context.store.state);
      if (!run) return;
      endRun(host.context, run.runId, 'completed');
      const runId = startRun(host.context, {
        type: 'continuation',
        source: blockRetrySource(host.context, run.runId),
        reason: 'retry',
      });
      await host.updateRunId(runId);
    },
  };
}

function planEntry(context: RuntimeContext, codonId: string): ExecutionCodonEntry | undefined {
  return context.store.state.executionPlan.find((entry) => entry.codonId === codonId);
}

/** Why `codonId` is skipped by a `when` condition, if it is (see {@link conditionGate}). */
async function conditionGateOf(
  context: RuntimeContext,
  codonId: string,
): Promise<ConditionSkip | undefined> {
  const entry = planEntry(context, codonId);
  return entry ? conditionGate(context, entry) : undefined;
}

/** Whether the budget lets `codonId` run (see {@link budgetGate}). */
function budgetGateOf(context: RuntimeContext, codonId: string): BudgetGate {
  const entry = planEntry(context, codonId);
  return entry ? budgetGate(context, entry) : { kind: 'run' };
}

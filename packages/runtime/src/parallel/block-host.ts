import type { ExecutionCodonEntry } from '@hankweave/types';
import type { BudgetGate, BudgetHalt } from '../budget/budget-gate.js';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import type { ConditionSkip } from '../plan/condition-gate.js';
import type { Decision } from '../runtime/decision.js';
import type { ShutdownReason } from '../runtime/exit-code.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/** What the runtime lends a block: how to run a codon attempt, the gates, and its stop. */
export interface BlockHost {
  /** agentRoot's context. */
  readonly context: RuntimeContext;
  /** agentRoot's checkpoint hint. */
  readonly hint: CheckpointHint;
  /** Aborted when the runtime begins to stop: cuts retry pauses short. */
  readonly stopSignal: AbortSignal;
  /** False once the runtime no longer drives codons (a shutdown began). */
  driving(): boolean;
  /** One attempt of a codon in `context` (agentRoot's or a branch's), and what follows it. */
  execute(
    context: RuntimeContext,
    hint: CheckpointHint,
    entry: ExecutionCodonEntry,
    options: { skipPreCommands: boolean; isAutoRetry: boolean; skip?: ConditionSkip },
  ): Promise<Decision>;
  budgetGate(context: RuntimeContext, entry: ExecutionCodonEntry): BudgetGate;
  /**
   * Stops the run (every branch with it): a branch failed or a budget is spent (`running`: how a
   * spent hank budget stops the branches still running).
   */
  halt(reason: ShutdownReason, running?: BudgetHalt['running']): void;
  /** Opens a continuation run before branches re-run codons the current run already holds. */
  openContinuation(): Promise<void>;
}

/** How a block ended for the driver: go on after it, wait for a command, or stop. */
export type BlockOutcome = { kind: 'next' } | { kind: 'idle' } | { kind: 'stopped' };

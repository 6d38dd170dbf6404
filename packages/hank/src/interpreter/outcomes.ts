import type { HankConfig } from '@hankweave/types';
import type { ConditionFacts } from '../conditions/evaluate-condition.js';

/** How one agent session ends: the first session of an attempt, or an `exhaustWithPrompt` extension. */
export type SessionEnd =
  /** A success result. */
  | 'ok'
  /** The conversation no longer fits the context window ("Prompt is too long"). */
  | 'context-exceeded'
  /** An API error a retry may cure (a 500, a rate limit). */
  | 'retriable-error'
  /** An API error no retry cures (a 400, an auth error). */
  | 'fatal-error';

/** One agent session: how it ends and what it costs, in dollars. */
export interface SessionOutcome {
  end: SessionEnd;
  cost: number;
}

/** A plateau loop agent's decision, as its final message or `result.json` reports it. */
export type PlateauVote = 'stop' | 'continue' | 'error';

/** What happens in one attempt of one codon, whatever the runtime decides around it. */
export interface AttemptOutcome {
  /**
   * The agent's sessions, the first one then each extension. Sessions the list does not reach
   * end `ok` and cost {@link DEFAULT_SESSION}'s cost.
   */
  sessions?: readonly SessionOutcome[];
  /**
   * A person stops the codon while its first session runs, after its first message: `skip`
   * (`codon.skip`) or `interrupt` (Ctrl-C: the runtime shuts down). Neither costs anything.
   */
  stoppedBy?: 'skip' | 'interrupt';
  /** The plateau decision the agent reports when the attempt completes (plateau loops only). */
  vote?: PlateauVote;
}

/** A session the outcome does not describe: a success at one cent. */
export const DEFAULT_SESSION: Readonly<SessionOutcome> = { end: 'ok', cost: 0.01 };

/**
 * What the person does after the runtime stopped: start it again on the same execution
 * (`resume`), or roll back to a completed codon first (`rollback`: the `target`-th codon id,
 * modulo their number, among the distinct codon ids that completed on the execution thread, in
 * thread order), then start it again.
 */
export type UserStep = { kind: 'resume' } | { kind: 'rollback'; target: number };

/** What the interpreter is given. */
export interface InterpreterInput {
  /** The hank, as `validateHank` parsed it. */
  hank: HankConfig;
  /**
   * The outcome of an attempt of the codon with runtime id `codonId` (`review#1`), where
   * `attempt` counts the codon's earlier executions that reached a final status (0 for the
   * first). Undefined: one `ok` session at the default cost.
   */
  outcome(codonId: string, attempt: number): AttemptOutcome | undefined;
  /** `--max-cost`: replaces the dollar ceilings of the runtime and the hank. */
  maxCost?: number;
  /** The runtime budget's dollar ceiling (`hankweave.json`): the smaller of it and the hank's counts. */
  runtimeMaxDollars?: number;
  /** What the person does after each stop, in order; when they run out, the interpretation ends. */
  steps?: readonly UserStep[];
  /** A bound on executions: a hank whose outcomes never end a loop would never end (default 10,000). */
  maxExecutions?: number;
  /**
   * What a `when` condition reads besides codon statuses, as it stands just before the codon with
   * runtime id `codonId` would start (for a loop's condition: its first codon). Undefined: no file
   * exists and no sentinel has spoken.
   */
  world?(codonId: string): Omit<ConditionFacts, 'statusOf'>;
  /**
   * The interleaving of a parallel block's branches, which the hank does not determine: given
   * the ids of the block's branches that are ready to run their next codon attempt (in block
   * order), the one that does. Undefined, or an id not in `ready`: the first (branch by branch).
   * The runtime's property tests feed the order in which the runtime started branch codons.
   */
  schedule?(blockId: string, ready: readonly string[]): string;
  /**
   * Whether the `attempt`-th merge of a parallel block (0 for the first; every merge counts,
   * also those a resume repeats) conflicts. Undefined: it does not.
   */
  mergeConflicts?(blockId: string, attempt: number): boolean;
}

/** How a process run of the runtime ends. */
export type Stop =
  /** Every codon of the plan ran (or was dropped by its loop's end). */
  | 'completed'
  /** A codon failed and its policy gave up, or a plateau loop's agent reported an error. */
  | 'failed'
  /** A person interrupted a running codon: the runtime shut down. */
  | 'interrupted'
  /** A container budget with `onExceeded: complete` is spent: the remaining codons do not run. */
  | 'budget-exceeded'
  /** A container budget with `onExceeded: fail` is spent. */
  | 'budget-failed';

/** Why an execution failed. */
export type FailureKind =
  | 'retriable-error'
  | 'fatal-error'
  /** The context window was exceeded outside a `contextExceeded` loop. */
  | 'context-exceeded'
  /** A budget with `onExceeded: fail` stopped the agent. */
  | 'budget'
  /** A `continue-previous` codon found no session to continue. */
  | 'no-session'
  | 'interrupted';

/** One codon execution: an attempt that reached a final status. */
export interface Execution {
  /** Runtime id (`review#1`; a block's resolver runs as `<blockId>.resolve`). */
  codonId: string;
  /** The loop it belongs to. */
  loopId?: string;
  /** The parallel block and branch it ran in (not set for a block's resolver). */
  branch?: { blockId: string; branchId: string };
  /** How many executions of this codon id came before (the key of its outcome). */
  attempt: number;
  /** The process run it happened in: 0 for the first start, then one more per step. */
  session: number;
  status: 'completed' | 'failed' | 'skipped';
  /** Dollars spent. */
  cost: number;
  /** Assistant messages (a skipped codon can be continued only when it has one). */
  messages: number;
  /** Its place in a retry series: 1 for a first try, n for the n-th attempt. */
  retryAttempt: number;
  failure?: FailureKind;
  failureIgnored?: true;
  /** Skipped because its `when` (or its loop's) did not hold: nothing ran, nothing was spent. */
  skippedBy?: 'condition';
  contextExceeded?: true;
  budgetExceeded?: true;
}

/** Why a loop ended (`loop.iteration.completed.terminationReason`). */
export type LoopTermination = 'iteration_limit' | 'context_exceeded' | 'plateau' | 'failure';

/** A loop's end: after which iteration (0-based) and why. */
export interface LoopEnding {
  loopId: string;
  iteration: number;
  reason: LoopTermination;
}

/**
 * How a parallel block's merge ended: `clean` (no conflict), `ordered` (a conflict settled by
 * branch order: `onConflict: ordered`, or a resolver that failed and was ignored, or had no
 * budget left), `resolved` (its resolver completed), `conflict` (the run stops; a resume merges
 * again).
 */
export type MergeResult = 'clean' | 'ordered' | 'resolved' | 'conflict';

/** One merge of a parallel block. */
export interface Merge {
  blockId: string;
  result: MergeResult;
  /** The process run it happened in. */
  session: number;
  /** How many executions came before it (its place among `executions`). */
  afterExecutions: number;
  /** Branches a spent block budget ended before they finished (merged as far as they got). */
  branchesCut?: string[];
}

/** What must happen: every execution in order, how each process run stopped, each loop's end. */
export interface Interpretation {
  executions: Execution[];
  stops: Stop[];
  loops: LoopEnding[];
  /** Every merge of a parallel block, in order (a block skipped by its condition merges nothing). */
  merges: Merge[];
}

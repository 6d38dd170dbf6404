import type {
  ActiveCodonStatus,
  BudgetExceeded,
  ExitStatus,
  FailureReason,
} from '@hankweave/types';
import type { CodonArchives } from '../archive/archive-after-codon.js';
import type { OutputFailure } from '../outputs/output-failure.js';
import type { ConditionSkip } from '../plan/condition-gate.js';
import type { PlanDecision } from '../plan/plan-after-codon.js';

// Its own file: the codon's end (`finishCodon`) builds it, and the steps after a codon (outputs,
// the driver's decision) read it; none of them imports another for it.

/** How a codon attempt ended: what the runtime's policies decide on. */
export interface CodonRunOutcome {
  codonId: string;
  status: 'completed' | 'failed' | 'skipped';
  failureReason?: FailureReason;
  failedDuring?: ActiveCodonStatus;
  contextExceeded: boolean;
  /** Final cost (completed) or partial cost (failed, skipped) of this attempt. */
  cost: number;
  durationMs: number;
  exitStatus: ExitStatus;
  /** The codon was interrupted by a shutdown (its checkpoint is an `exit` checkpoint). */
  interrupted: boolean;
  /** The budget that stopped the codon, if one did. */
  budgetExceeded?: BudgetExceeded;
  /** Set when the codon was skipped because a `when` condition did not hold. */
  condition?: ConditionSkip;
  /** What `archiveOnSuccess` moved after the checkpoint; announced after `codon.completed`. */
  archives?: CodonArchives;
  /** Why the codon's `outputFiles` could not be copied; the run fails after `codon.completed`. */
  outputFailure?: OutputFailure;
  /** The attempt's place in its retry series (1 for a first try). */
  retryAttempt: number;
  /** What the ending decided (recorded with the terminal transition): policy, plan, loop. */
  decision: PlanDecision;
}

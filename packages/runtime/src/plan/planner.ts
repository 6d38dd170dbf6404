import { type LoopIterationRecord, plateauVerdict } from '@hankweave/sessions';
import {
  type CodonConfig,
  type ExecutionCodonEntry,
  type HankConfig,
  isLoopConfig,
  type LoopConfig,
} from '@hankweave/types';

/** Why a loop stopped (`loop.iteration.completed.terminationReason`). */
export type LoopTermination = 'iteration_limit' | 'context_exceeded' | 'plateau' | 'failure';

/** The runtime id of a loop codon in an iteration: `review#1`. */
export const loopCodonId = (codonId: string, iteration: number): string =>
  `${codonId}#${iteration}`;

function iterationEntries(loop: LoopConfig, iteration: number): ExecutionCodonEntry[] {
  return loop.codons.map((codon, codonIndexInLoop) => ({
    codon: codon as ExecutionCodonEntry['codon'],
    codonId: loopCodonId(codon.id, iteration),
    loopContext: { loopId: loop.id, iteration, codonIndexInLoop },
  }));
}

/**
 * The initial plan (reference §6.6): top-level codons keep their id; each loop contributes only
 * iteration 0 (`id#0`). Later iterations are added lazily by `expandAfterCodon`.
 */
export function buildInitialPlan(config: HankConfig): ExecutionCodonEntry[] {
  return config.hank.flatMap((item) =>
    isLoopConfig(item)
      ? iterationEntries(item, 0)
      : [{ codon: item as ExecutionCodonEntry['codon'], codonId: item.id }],
  );
}

export interface CodonEnding {
  /** The runtime id of the codon that just reached completed/skipped (or failed and was ignored). */
  codonId: string;
  contextExceeded?: boolean;
  budgetExceeded?: boolean;
  failed?: boolean;
}

export interface Expansion {
  plan: ExecutionCodonEntry[];
  /** Set when the codon ended an iteration. */
  iterationEnded?: {
    loopId: string;
    iteration: number;
    isFinal: boolean;
    terminationReason?: LoopTermination;
    /** A plateau loop's agent reported an error decision: the loop (and the run) failed. */
    decisionError?: boolean;
  };
}

/**
 * Decides what follows a codon of a loop (reference §1.5, §6.6, plus plateau loops): drop the
 * rest of the iteration when the context was exceeded in a `contextExceeded` loop; at the last
 * codon of an iteration either stop (limit, budget, plateau consensus) or insert the next
 * iteration right after it. Codons outside loops leave the plan unchanged.
 *
 * `history` is the loop's recorded iteration decisions (its loop state file's `history`, 1-based
 * iterations): plateau termination is `plateauVerdict` of it, a pure function of the record.
 */
export function expandAfterCodon(
  plan: readonly ExecutionCodonEntry[],
  config: HankConfig,
  ending: CodonEnding,
  history: readonly LoopIterationRecord[] = [],
): Expansion {
  const index = plan.findIndex((entry) => entry.codonId === ending.codonId);
  const entry = plan[index];
  const context = entry?.loopContext;
  if (!entry || !context) return { plan: [...plan] };
  const loop = config.hank.find(
    (item): item is LoopConfig => isLoopConfig(item) && item.id === context.loopId,
  );
  // A loop that is gone from hank.json (edited between resumes) simply ends.
  if (!loop) {
    return {
      plan: [...plan],
      iterationEnded: { loopId: context.loopId, iteration: context.iteration, isFinal: true },
    };
  }
  const { iteration } = context;
  const stop = (reason: LoopTermination, keepUntil: number, decisionError = false): Expansion => ({
    plan: [
      ...plan.slice(0, keepUntil + 1),
      ...plan
        .slice(keepUntil + 1)
        .filter(
          (later) =>
            later.loopContext?.loopId !== loop.id || later.loopContext.iteration !== iteration,
        ),
    ],
    iterationEnded: {
      loopId: loop.id,
      iteration,
      isFinal: true,
      terminationReason: reason,
      ...(decisionError ? { decisionError } : {}),
    },
  });
  if (ending.contextExceeded && loop.terminateOn.type === 'contextExceeded') {
    return stop('context_exceeded', index);
  }
  const isLastOfIteration = context.codonIndexInLoop === loop.codons.length - 1;
  if (!isLastOfIteration) return { plan: [...plan] };

  const terminate = loop.terminateOn;
  let reason: LoopTermination | undefined;
  if (ending.budgetExceeded) reason = 'failure';
  else if (terminate.type === 'iterationLimit' && iteration >= terminate.limit - 1)
    reason = 'iteration_limit';
  else if (terminate.type === 'plateau') {
    const verdict = plateauVerdict(history, terminate, iteration + 1);
    if (verdict.stop) {
      if (verdict.reason === 'error') return stop('failure', index, true);
      reason = verdict.reason;
    }
  }
  if (reason) return stop(reason, index);
  // Idempotent: the next iteration may be in the plan already (a rollback re-ran this one, or a
  // crash came between the codon's completion and this expansion, which is then applied again).
  const expanded = plan.some(
    (later) =>
      later.loopContext?.loopId === loop.id && later.loopContext.iteration === iteration + 1,
  );
  if (expanded) {
    return { plan: [...plan], iterationEnded: { loopId: loop.id, iteration, isFinal: false } };
  }
  const next = iterationEntries(loop, iteration + 1);
  return {
    plan: [...plan.slice(0, index + 1), ...next, ...plan.slice(index + 1)],
    iterationEnded: { loopId: loop.id, iteration, isFinal: false },
  };
}

/** The codon config of a plan entry, typed (plans are frozen copies of hank.json codons). */
export const entryCodon = (entry: ExecutionCodonEntry): CodonConfig =>
  entry.codon as unknown as CodonConfig;

/** The entry after `codonId` in the plan, or the first entry when `codonId` is null. */
export function nextPlanEntry(
  plan: readonly ExecutionCodonEntry[],
  codonId: string | null,
): ExecutionCodonEntry | undefined {
  if (codonId === null) return plan[0];
  const index = plan.findIndex((entry) => entry.codonId === codonId);
  return index === -1 ? undefined : plan[index + 1];
}

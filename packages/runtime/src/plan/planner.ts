import { type LoopVote, plateauVerdict } from '@hankweave/sessions';
import {
  type BranchItem,
  type CodonConfig,
  type ExecutionCodonEntry,
  type HankConfig,
  hankLoops,
  isLoopConfig,
  isParallelConfig,
  type LoopConfig,
  type ParallelConfig,
  type ParallelContext,
  resolverOf,
} from '@hankweave/types';

/** Why a loop stopped (`loop.iteration.completed.terminationReason`). */
export type LoopTermination = 'iteration_limit' | 'context_exceeded' | 'plateau' | 'failure';

/** The runtime id of a loop codon in an iteration: `review#1`. */
export const loopCodonId = (codonId: string, iteration: number): string =>
  `${codonId}#${iteration}`;

function iterationEntries(
  loop: LoopConfig,
  iteration: number,
  parallel?: ParallelContext,
): ExecutionCodonEntry[] {
  return loop.codons.map((codon, codonIndexInLoop) => ({
    codon: codon as ExecutionCodonEntry['codon'],
    codonId: loopCodonId(codon.id, iteration),
    loopContext: { loopId: loop.id, iteration, codonIndexInLoop },
    ...(parallel ? { parallelContext: parallel } : {}),
  }));
}

function itemEntries(item: BranchItem, parallel?: ParallelContext): ExecutionCodonEntry[] {
  return isLoopConfig(item)
    ? iterationEntries(item, 0, parallel)
    : [
        {
          codon: item as ExecutionCodonEntry['codon'],
          codonId: item.id,
          ...(parallel ? { parallelContext: parallel } : {}),
        },
      ];
}

/**
 * A parallel block's entries: each branch's codons (loops' iteration 0) branch by branch, the
 * resolver when the merge has one, and last the block's own merge entry (its id, its name).
 */
function blockEntries(block: ParallelConfig): ExecutionCodonEntry[] {
  const resolver = resolverOf(block);
  return [
    ...block.branches.flatMap((branch) =>
      branch.items.flatMap((item) =>
        itemEntries(item, { blockId: block.id, role: 'branch', branchId: branch.id }),
      ),
    ),
    ...(resolver
      ? [
          {
            codon: resolver as ExecutionCodonEntry['codon'],
            // The reference interpreter's runtime id of a resolver (validation reserves it).
            codonId: `${block.id}.resolve`,
            parallelContext: { blockId: block.id, role: 'resolver' as const },
          },
        ]
      : []),
    {
      codon: { id: block.id, name: block.name, type: 'merge' },
      codonId: block.id,
      parallelContext: { blockId: block.id, role: 'merge' },
    },
  ];
}

/**
 * The initial plan (reference §6.6): top-level codons keep their id; each loop contributes only
 * iteration 0 (`id#0`). Later iterations are added lazily by `expandAfterCodon`. A parallel
 * block contributes its branches' entries, its resolver and its merge (see `blockEntries`).
 */
export function buildInitialPlan(config: HankConfig): ExecutionCodonEntry[] {
  return config.hank.flatMap((item) =>
    isParallelConfig(item) ? blockEntries(item) : itemEntries(item),
  );
}

export interface CodonEnding {
  /** The runtime id of the codon that just reached completed/skipped (or failed and was ignored). */
  codonId: string;
  contextExceeded?: boolean;
  budgetExceeded?: boolean;
  /**
   * No codon of the iteration did work (this one included): each failed or was skipped by its
   * condition. A contextExceeded loop ends: its session cannot grow.
   */
  iterationFailed?: boolean;
  /** Skipped with its whole loop, whose `when` did not hold: the loop never ran. */
  loopSkipped?: boolean;
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

/** Makes sure `successors` follow the entry at `index`, in order, inserting the missing ones. */
function ensureAfter(
  plan: readonly ExecutionCodonEntry[],
  index: number,
  successors: readonly ExecutionCodonEntry[],
): ExecutionCodonEntry[] {
  const next = [...plan];
  let previous = index;
  for (const successor of successors) {
    const found = next.findIndex((entry) => entry.codonId === successor.codonId);
    if (found >= 0) previous = found;
    else next.splice(++previous, 0, successor);
  }
  return next;
}

/**
 * Decides what follows a codon of a loop (reference §1.5, §6.6, plus plateau loops; the rules are
 * the reference interpreter's, `@hankweave/hank`). When the loop terminates, every later entry of
 * the loop leaves the plan (the rest of this iteration, and iterations a rollback left behind);
 * a `contextExceeded` loop terminates at any codon whose context was exceeded, the others at the
 * last codon of an iteration (limit, budget, plateau consensus or error). When it goes on, its
 * successor is made sure of: the next codon of the iteration, or the whole next iteration after
 * the last codon, inserted right after it when missing (a rollback may have run this codon again
 * after an earlier decision dropped them). Idempotent: applying it twice changes nothing more.
 * Codons outside loops leave the plan unchanged.
 *
 * `history` is the loop's recorded iteration decisions on the execution thread (1-based
 * iterations): plateau termination is `plateauVerdict` of it, a pure function of the record.
 */
export function expandAfterCodon(
  plan: readonly ExecutionCodonEntry[],
  config: HankConfig,
  ending: CodonEnding,
  history: readonly LoopVote[] = [],
): Expansion {
  const index = plan.findIndex((entry) => entry.codonId === ending.codonId);
  const entry = plan[index];
  const context = entry?.loopContext;
  if (!entry || !context) return { plan: [...plan] };
  const loop = hankLoops(config).find((item) => item.id === context.loopId);
  const parallel = entry.parallelContext;
  // A loop that is gone from hank.json (edited between resumes) simply ends.
  if (!loop) {
    return {
      plan: [...plan],
      iterationEnded: { loopId: context.loopId, iteration: context.iteration, isFinal: true },
    };
  }
  const { iteration } = context;
  const stop = (reason: LoopTermination, decisionError = false): Expansion => ({
    plan: plan.filter((later, at) => at <= index || later.loopContext?.loopId !== loop.id),
    iterationEnded: {
      loopId: loop.id,
      iteration,
      isFinal: true,
      terminationReason: reason,
      ...(decisionError ? { decisionError } : {}),
    },
  });
  if (ending.contextExceeded && loop.terminateOn.type === 'contextExceeded') {
    return stop('context_exceeded');
  }
  const isLastOfIteration = context.codonIndexInLoop === loop.codons.length - 1;
  // A loop skipped by its condition leaves the plan after its first iteration, with no ending:
  // it never ran (the reference interpreter records none either).
  if (ending.loopSkipped && isLastOfIteration) {
    return {
      plan: plan.filter((later, at) => at <= index || later.loopContext?.loopId !== loop.id),
    };
  }
  if (!isLastOfIteration) {
    const next = iterationEntries(loop, iteration, parallel).slice(context.codonIndexInLoop + 1);
    return { plan: ensureAfter(plan, index, next.slice(0, 1)) };
  }

  const terminate = loop.terminateOn;
  let reason: LoopTermination | undefined;
  if (ending.budgetExceeded) reason = 'failure';
  // An iteration that only failed or was skipped never grows its session: it would never overflow.
  else if (terminate.type === 'contextExceeded' && ending.iterationFailed) reason = 'failure';
  else if (terminate.type === 'iterationLimit' && iteration >= terminate.limit - 1)
    reason = 'iteration_limit';
  else if (terminate.type === 'plateau') {
    const verdict = plateauVerdict(history, terminate, iteration + 1);
    if (verdict.stop) {
      if (verdict.reason === 'error') return stop('failure', true);
      reason = verdict.reason;
    }
  }
  if (reason) return stop(reason);
  return {
    plan: ensureAfter(plan, index, iterationEntries(loop, iteration + 1, parallel)),
    iterationEnded: { loopId: loop.id, iteration, isFinal: false },
  };
}

/** True when two plans hold the same entries in the same order. */
export const samePlan = (
  a: readonly ExecutionCodonEntry[],
  b: readonly ExecutionCodonEntry[],
): boolean => a.length === b.length && a.every((entry, at) => entry.codonId === b[at]?.codonId);

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

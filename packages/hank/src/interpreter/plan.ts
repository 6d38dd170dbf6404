import {
  type BranchItem,
  type CodonConfig,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  type LoopConfig,
  type ParallelConfig,
  resolverOf,
} from '@hankweave/types';

// The plan entries of the reference interpreter, and the lanes they run in (see interpret.ts).

/** The lane of the top-level items. */
export const TOP = '';

/** The lane of a parallel block's branch. */
export const laneKey = (blockId: string, branchId: string) => `${blockId}/${branchId}`;

/** The runtime id of a block's resolver, which is also its lane. */
export const resolverId = (blockId: string) => `${blockId}.resolve`;

/** A codon the plan may run. */
export interface Entry {
  codonId: string;
  codon: CodonConfig;
  /** The sequence it runs in: {@link TOP}, a branch's {@link laneKey}, or a {@link resolverId}. */
  lane: string;
  loop?: { config: LoopConfig; iteration: number; index: number };
  /** The parallel block it runs in: in its branch `branchId`, or as its resolver (no branch). */
  block?: { config: ParallelConfig; branchId?: string };
}

/** A parallel block in the top-level plan. */
export interface BlockEntry {
  codonId: string;
  parallel: ParallelConfig;
  loop?: undefined;
}

export type PlanEntry = Entry | BlockEntry;

/** A block moved past, or a branch ended by its block's budget, at a place in the executions. */
export interface Mark {
  /** A block id, or a branch's lane. */
  id: string;
  /** How many executions came before it. */
  at: number;
}

/** A pending automatic retry of a lane's codon. */
export interface Retry {
  entry: Entry;
  retryAttempt: number;
}

/** The entries of a loop's iteration, in its lane. */
export const iterationOf = (
  loop: LoopConfig,
  iteration: number,
  lane: string,
  block: Entry['block'],
): Entry[] =>
  loop.codons.map((codon, index) => ({
    codonId: `${codon.id}#${iteration}`,
    codon,
    lane,
    loop: { config: loop, iteration, index },
    ...(block ? { block } : {}),
  }));

/** A block's child in its budget: its branch, or its resolver's codon id. */
export const childOf = (entry: Entry): string => entry.block?.branchId ?? entry.codon.id;

/** The entry of a block's resolver (a block whose merge has none has no such entry). */
export function resolverEntry(block: ParallelConfig): Entry {
  const codon = resolverOf(block) as CodonConfig;
  return {
    codonId: resolverId(block.id),
    codon,
    lane: resolverId(block.id),
    block: { config: block },
  };
}

/**
 * The initial plan of every lane: the top level (codons, loops' iteration 0, blocks), each
 * branch of each block (its codons and loops' iteration 0), each resolver; and the lane of every
 * codon id (the hank's ids are unique, so an id names its lane).
 */
export function buildPlans(hank: HankConfig): {
  plans: Map<string, PlanEntry[]>;
  laneOfCodon: Map<string, string>;
} {
  const plans = new Map<string, PlanEntry[]>();
  const laneOfCodon = new Map<string, string>();
  const entriesOf = (item: BranchItem, lane: string, block: Entry['block']): Entry[] => {
    const entries = isLoopConfig(item)
      ? iterationOf(item, 0, lane, block)
      : [{ codonId: item.id, codon: item, lane, ...(block ? { block } : {}) }];
    for (const codon of isLoopConfig(item) ? item.codons : [item]) laneOfCodon.set(codon.id, lane);
    return entries;
  };
  const top: PlanEntry[] = [];
  for (const item of hank.hank) {
    if (!isParallelConfig(item)) {
      top.push(...entriesOf(item, TOP, undefined));
      continue;
    }
    top.push({ codonId: item.id, parallel: item });
    laneOfCodon.set(item.id, TOP);
    for (const branch of item.branches) {
      const lane = laneKey(item.id, branch.id);
      plans.set(
        lane,
        branch.items.flatMap((inner) =>
          entriesOf(inner, lane, { config: item, branchId: branch.id }),
        ),
      );
    }
    if (resolverOf(item)) {
      plans.set(resolverId(item.id), [resolverEntry(item)]);
      laneOfCodon.set(resolverId(item.id), resolverId(item.id));
    }
  }
  plans.set(TOP, top);
  return { plans, laneOfCodon };
}

import type {
  CodonConfig,
  ContainerBudget,
  HankConfig,
  LoopConfig,
  ParallelConfig,
} from '@hankweave/types';

// Dollar budgets as the reference interpreter sees them (reference §1.7). Time budgets are not
// modelled: what they decide depends on the clock, not on the outcomes.

/**
 * The float noise of dollar comparisons. Costs are sums of floats that agents report rounded in
 * different ways (0.018 vs 0.018000000000000002), and limits are differences of such sums, so
 * "exactly the limit" comes out a few 1e-18 either side. Both the interpreter and the runtime
 * count a container with less than this left as spent, and a spend within this of its limit as
 * not passing it: a billionth of a dollar buys nothing.
 */
export const DOLLAR_TOLERANCE = 1e-9;

/** What one earlier execution spent, and where: its loop (if any) and its codon id in hank.json. */
export interface Spend {
  loopId?: string;
  /** The parallel block it ran in, and its child there: its branch's id, or the resolver's id. */
  block?: { blockId: string; child: string };
  baseId: string;
  dollars: number;
}

/** The dollars an attempt may spend, and what is spent up when nothing is left. */
export interface DollarLimits {
  maxDollars?: number;
  onExceeded: 'complete' | 'fail';
  /** The first container (the hank, then the block, then the loop) with nothing left for this codon. */
  exhausted?: { scope: 'hank' | 'block' | 'loop'; onExceeded: 'complete' | 'fail' };
}

interface Container {
  maxDollars?: number;
  allocation: ContainerBudget['allocation'];
  shares: Readonly<Record<string, number>>;
  children: readonly string[];
}

/**
 * What `child` may still spend in a container, given what each child spent: `shared` gives
 * what remains; `proportional` the child's allocation (share × max; children without a share
 * split the unallocated rest evenly) less its own spend, bounded by what remains;
 * `proportional-strict` the same, where every other child counts the larger of its allocation
 * and its spend.
 */
function dollarsLeft(container: Container, child: string, spent: Map<string, number>): number {
  const max = container.maxDollars ?? Number.POSITIVE_INFINITY;
  const total = [...spent.values()].reduce((sum, dollars) => sum + dollars, 0);
  if (container.allocation === 'shared') return max - total;
  const shared = container.children.reduce((sum, id) => sum + (container.shares[id] ?? 0), 0);
  const unshared = container.children.filter((id) => container.shares[id] === undefined).length;
  const allocation = (id: string) =>
    container.shares[id] !== undefined
      ? (container.shares[id] ?? 0) * max
      : Math.max(0, max * (1 - shared)) / unshared;
  const own = spent.get(child) ?? 0;
  if (container.allocation === 'proportional')
    return Math.min(allocation(child) - own, max - total);
  let consumed = own;
  for (const [other, dollars] of spent) {
    if (other !== child) consumed += Math.max(allocation(other), dollars);
  }
  return Math.min(allocation(child) - own, max - consumed);
}

const sumBy = (spends: readonly Spend[], key: (spend: Spend) => string) => {
  const sums = new Map<string, number>();
  for (const spend of spends) sums.set(key(spend), (sums.get(key(spend)) ?? 0) + spend.dollars);
  return sums;
};

/**
 * The dollar limits of an attempt of `codon` (in `loop`, if any), given every earlier
 * execution's spend (money spent before a rollback stays spent). The codon's own `maxDollars`
 * is a ceiling; the hank's container (ceiling: `--max-cost`, else the smaller of the runtime's
 * and the hank's), the parallel block's (if any; its children are its branches and its resolver)
 * and the loop's bound it by what they leave this child. `onExceeded` resolves codon → loop →
 * block → hank → `complete`.
 */
export function dollarLimits(
  hank: HankConfig,
  ceilings: { maxCost?: number; runtimeMaxDollars?: number },
  codon: CodonConfig,
  loop: LoopConfig | undefined,
  spends: readonly Spend[],
  block?: { config: ParallelConfig; child: string },
): DollarLimits {
  const hankBudget = hank.overrides?.budget;
  const candidates = [ceilings.runtimeMaxDollars, hankBudget?.maxDollars].filter(
    (value): value is number => value !== undefined,
  );
  const hankMax = ceilings.maxCost ?? (candidates.length > 0 ? Math.min(...candidates) : undefined);
  const scopes: {
    scope: 'hank' | 'block' | 'loop';
    container: Container;
    spent: Map<string, number>;
    child: string;
    onExceeded: 'complete' | 'fail';
  }[] = [
    {
      scope: 'hank',
      container: {
        ...(hankMax !== undefined ? { maxDollars: hankMax } : {}),
        allocation: hankBudget?.allocation ?? 'shared',
        shares: hankBudget?.shares ?? {},
        children: hank.hank.map((item) => item.id),
      },
      spent: sumBy(spends, (spend) => spend.block?.blockId ?? spend.loopId ?? spend.baseId),
      child: block?.config.id ?? loop?.id ?? codon.id,
      onExceeded: hankBudget?.onExceeded ?? 'complete',
    },
  ];
  const blockBudget = block?.config.budget;
  if (block && blockBudget) {
    const onConflict = block.config.merge.onConflict;
    scopes.push({
      scope: 'block',
      container: {
        ...(blockBudget.maxDollars !== undefined ? { maxDollars: blockBudget.maxDollars } : {}),
        allocation: blockBudget.allocation,
        shares: blockBudget.shares ?? {},
        children: [
          ...block.config.branches.map((branch) => branch.id),
          ...(typeof onConflict === 'object' ? [onConflict.resolver.id] : []),
        ],
      },
      spent: sumBy(
        spends.filter((spend) => spend.block?.blockId === block.config.id),
        (spend) => spend.block?.child ?? spend.baseId,
      ),
      child: block.child,
      onExceeded: blockBudget.onExceeded ?? hankBudget?.onExceeded ?? 'complete',
    });
  }
  if (loop?.budget) {
    scopes.push({
      scope: 'loop',
      container: {
        ...(loop.budget.maxDollars !== undefined ? { maxDollars: loop.budget.maxDollars } : {}),
        allocation: loop.budget.allocation,
        shares: loop.budget.shares ?? {},
        children: loop.codons.map((inner) => inner.id),
      },
      spent: sumBy(
        spends.filter((spend) => spend.loopId === loop.id),
        (spend) => spend.baseId,
      ),
      child: codon.id,
      onExceeded:
        loop.budget.onExceeded ?? blockBudget?.onExceeded ?? hankBudget?.onExceeded ?? 'complete',
    });
  }
  let maxDollars = codon.budget?.maxDollars;
  let exhausted: DollarLimits['exhausted'];
  for (const { scope, container, spent, child, onExceeded } of scopes) {
    if (container.maxDollars === undefined) continue;
    const left = dollarsLeft(container, child, spent);
    maxDollars = maxDollars === undefined ? left : Math.min(maxDollars, left);
    if (left <= DOLLAR_TOLERANCE && !exhausted) exhausted = { scope, onExceeded };
  }
  return {
    ...(maxDollars !== undefined ? { maxDollars: Math.max(0, maxDollars) } : {}),
    onExceeded:
      codon.budget?.onExceeded ??
      loop?.budget?.onExceeded ??
      blockBudget?.onExceeded ??
      hankBudget?.onExceeded ??
      'complete',
    ...(exhausted ? { exhausted } : {}),
  };
}

import { DOLLAR_TOLERANCE } from '@hankweave/hank';
import {
  type CodonConfig,
  type ContainerBudget,
  type ExecutionCodonEntry,
  type HankConfig,
  hankLoops,
  isLoopConfig,
  type LoopConfig,
} from '@hankweave/types';

/** A dollar and time ceiling (the runtime's `budget`, the hank's effective ceiling). */
export interface BudgetCeiling {
  maxDollars?: number;
  maxTimeSeconds?: number;
}

/** Where budget limits come from besides hank.json (reference §1.7 "Limits from several sources"). */
export interface BudgetSources {
  /** The runtime budget (`hankweave.json budget`); combined with the hank's as the minimum. */
  runtime?: BudgetCeiling;
  /** `--max-cost`: replaces both the runtime's and the hank's dollar ceiling. */
  maxCost?: number;
  /** `--max-time`: replaces both the runtime's and the hank's time ceiling. */
  maxTime?: number;
}

/** What to do when a codon crosses a limit. */
export type OnExceeded = 'complete' | 'fail';

/** The internal currency names of reference §4.8 (`BUDGET_CURRENCIES`). */
export type BudgetCurrency = 'cost' | 'duration' | 'outputTokens' | 'contextTokens';

/** What a codon already spent: one row per codon attempt recorded in state. */
export interface SpentRow {
  /** Runtime id (`review#1`). */
  codonId: string;
  /** The loop of the codon, if any. */
  loopId?: string;
  /** The codon's id in hank.json (`review`). */
  baseId: string;
  dollars: number;
  seconds: number;
}

/** The container whose budget is spent, when it is. */
export interface Exhausted {
  scope: 'hank' | 'loop';
  /** The loop id when `scope` is `loop`. */
  id?: string;
  currency: 'cost' | 'duration';
  limit: number;
  used: number;
  onExceeded: OnExceeded;
}

/** The limits one codon attempt runs under (undefined: no limit in that currency). */
export interface CodonLimits {
  maxDollars?: number;
  maxTimeSeconds?: number;
  maxOutputTokens?: number;
  maxContextTokens?: number;
  onExceeded: OnExceeded;
  /** Set when a container has nothing left for this codon: it must not run. */
  exhausted?: Exhausted;
}

const minDefined = (...values: (number | undefined)[]): number | undefined => {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
};

/**
 * The hank's ceiling: min(runtime, hank `overrides.budget`) per currency, with `--max-cost` and
 * `--max-time` replacing both (reference §1.7).
 */
export function hankCeiling(config: HankConfig, sources: BudgetSources = {}): BudgetCeiling {
  const hank = config.overrides?.budget;
  const maxDollars = sources.maxCost ?? minDefined(sources.runtime?.maxDollars, hank?.maxDollars);
  const maxTimeSeconds =
    sources.maxTime ?? minDefined(sources.runtime?.maxTimeSeconds, hank?.maxTimeSeconds);
  return {
    ...(maxDollars !== undefined ? { maxDollars } : {}),
    ...(maxTimeSeconds !== undefined ? { maxTimeSeconds } : {}),
  };
}

/** A container as allocation sees it: its ceiling, its rules, its children in plan order. */
interface Container {
  scope: 'hank' | 'loop';
  id?: string;
  maxDollars?: number;
  maxTimeSeconds?: number;
  allocation: ContainerBudget['allocation'];
  shares: Record<string, number>;
  children: readonly string[];
}

/**
 * Each child's dollar allocation in a proportional container: share × max, and the unallocated
 * pool split evenly among the children without a share.
 */
export function allocations(
  maxDollars: number,
  children: readonly string[],
  shares: Readonly<Record<string, number>>,
): Map<string, number> {
  const allocated = children.reduce((sum, child) => sum + (shares[child] ?? 0), 0);
  const unshared = children.filter((child) => shares[child] === undefined);
  const pool = Math.max(0, maxDollars * (1 - allocated));
  return new Map(
    children.map((child) => [
      child,
      shares[child] !== undefined ? shares[child] * maxDollars : pool / unshared.length,
    ]),
  );
}

/**
 * The dollars a child may still spend in a container (reference §1.7): `shared` gives what remains;
 * `proportional` its allocation (less what it spent already), bounded by what remains;
 * `proportional-strict` the same, but each other child that ran counts max(allocation, actual).
 * `spent` maps each child to what it spent so far.
 */
export function dollarLimit(
  container: Pick<Container, 'maxDollars' | 'allocation' | 'shares' | 'children'>,
  child: string,
  spent: ReadonlyMap<string, number>,
): number | undefined {
  const max = container.maxDollars;
  if (max === undefined) return undefined;
  const total = [...spent.values()].reduce((sum, dollars) => sum + dollars, 0);
  if (container.allocation === 'shared') return max - total;
  const shares = allocations(max, container.children, container.shares);
  const own = spent.get(child) ?? 0;
  const allocation = (shares.get(child) ?? 0) - own;
  if (container.allocation === 'proportional') return Math.min(allocation, max - total);
  let consumed = own;
  for (const [other, dollars] of spent) {
    if (other !== child) consumed += Math.max(shares.get(other) ?? 0, dollars);
  }
  return Math.min(allocation, max - consumed);
}

function hankContainer(config: HankConfig, ceiling: BudgetCeiling): Container {
  const budget = config.overrides?.budget;
  return {
    scope: 'hank',
    ...ceiling,
    allocation: budget?.allocation ?? 'shared',
    shares: budget?.shares ?? {},
    children: config.hank.map((item) => item.id),
  };
}

function loopContainer(loop: LoopConfig): Container | undefined {
  const budget = loop.budget;
  if (!budget) return undefined;
  return {
    scope: 'loop',
    id: loop.id,
    ...(budget.maxDollars !== undefined ? { maxDollars: budget.maxDollars } : {}),
    ...(budget.maxTimeSeconds !== undefined ? { maxTimeSeconds: budget.maxTimeSeconds } : {}),
    allocation: budget.allocation,
    shares: budget.shares ?? {},
    children: loop.codons.map((codon) => codon.id),
  };
}

const sumBy = (rows: readonly SpentRow[], key: (row: SpentRow) => string): Map<string, number> => {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + row.dollars);
  return sums;
};

/**
 * The limits of the codon of `entry`, given what every earlier attempt spent (reference §1.7):
 * the codon's own caps are ceilings; each container (the hank, then its loop) bounds dollars by
 * its allocation and time by what remains of it; `onExceeded` resolves codon → loop → hank →
 * `complete`. When a container has nothing left for it, `exhausted` says which.
 */
export function resolveCodonLimits(input: {
  config: HankConfig;
  entry: ExecutionCodonEntry;
  ceiling: BudgetCeiling;
  spent: readonly SpentRow[];
}): CodonLimits {
  const { config, entry, ceiling, spent } = input;
  const codon = entry.codon as unknown as CodonConfig;
  const loopId = entry.loopContext?.loopId;
  const loop = hankLoops(config).find((item) => item.id === loopId);
  const hankOnExceeded = config.overrides?.budget?.onExceeded;
  const onExceeded: OnExceeded =
    codon.budget?.onExceeded ?? loop?.budget?.onExceeded ?? hankOnExceeded ?? 'complete';
  const scopes: { container: Container; rows: readonly SpentRow[]; child: string }[] = [
    {
      container: hankContainer(config, ceiling),
      rows: spent,
      child: loopId ?? codon.id,
    },
  ];
  const inner = loop && loopContainer(loop);
  if (inner) {
    scopes.push({
      container: inner,
      rows: spent.filter((row) => row.loopId === loopId),
      child: codon.id,
    });
  }
  let maxDollars = codon.budget?.maxDollars;
  let maxTimeSeconds = codon.budget?.maxTimeSeconds;
  let exhausted: Exhausted | undefined;
  for (const { container, rows, child } of scopes) {
    const byChild = sumBy(rows, (row) =>
      container.scope === 'hank' ? (row.loopId ?? row.baseId) : row.baseId,
    );
    const containerOnExceeded: OnExceeded =
      (container.scope === 'loop' ? loop?.budget?.onExceeded : undefined) ??
      hankOnExceeded ??
      'complete';
    const dollars = dollarLimit(container, child, byChild);
    if (dollars !== undefined && container.maxDollars !== undefined) {
      maxDollars = minDefined(maxDollars, dollars);
      // A billionth of a dollar left is float noise of summed costs, not budget (as the interpreter).
      if (dollars <= DOLLAR_TOLERANCE && !exhausted) {
        exhausted = {
          scope: container.scope,
          ...(container.id ? { id: container.id } : {}),
          currency: 'cost',
          limit: container.maxDollars,
          used: rows.reduce((sum, row) => sum + row.dollars, 0),
          onExceeded: containerOnExceeded,
        };
      }
    }
    if (container.maxTimeSeconds !== undefined) {
      const used = rows.reduce((sum, row) => sum + row.seconds, 0);
      const left = container.maxTimeSeconds - used;
      maxTimeSeconds = minDefined(maxTimeSeconds, left);
      if (left <= 0 && !exhausted) {
        exhausted = {
          scope: container.scope,
          ...(container.id ? { id: container.id } : {}),
          currency: 'duration',
          limit: container.maxTimeSeconds,
          used,
          onExceeded: containerOnExceeded,
        };
      }
    }
  }
  return {
    ...(maxDollars !== undefined ? { maxDollars: Math.max(0, maxDollars) } : {}),
    ...(maxTimeSeconds !== undefined ? { maxTimeSeconds: Math.max(0, maxTimeSeconds) } : {}),
    ...(codon.budget?.maxOutputTokens !== undefined
      ? { maxOutputTokens: codon.budget.maxOutputTokens }
      : {}),
    ...(codon.budget?.maxContextTokens !== undefined
      ? { maxContextTokens: codon.budget.maxContextTokens }
      : {}),
    onExceeded,
    ...(exhausted ? { exhausted } : {}),
  };
}

/** True when the hank sets any budget (so a `budget.summary` is worth emitting). */
export function hankHasBudget(config: HankConfig, ceiling: BudgetCeiling): boolean {
  if (ceiling.maxDollars !== undefined || ceiling.maxTimeSeconds !== undefined) return true;
  return config.hank.some((item) =>
    isLoopConfig(item)
      ? item.budget !== undefined || item.codons.some((codon) => codon.budget !== undefined)
      : item.budget !== undefined,
  );
}

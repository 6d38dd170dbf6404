import {
  type BranchItem,
  type CodonConfig,
  type ContainerBudget,
  defaultModelCatalog,
  emptyTokenUsage,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  resolverOf,
} from '@hankweave/types';
import type { HankIssueCode } from './hank-issue.js';

type Warn = (path: PropertyKey[], code: HankIssueCode, message: string) => void;

/** Each child's dollar allocation in a proportional container (share × max, the rest split evenly). */
function allocationsOf(budget: ContainerBudget, children: readonly string[]): Map<string, number> {
  const max = budget.maxDollars ?? 0;
  const shares = budget.shares ?? {};
  const allocated = children.reduce((sum, child) => sum + (shares[child] ?? 0), 0);
  const unshared = children.filter((child) => shares[child] === undefined).length;
  const pool = Math.max(0, max * (1 - allocated));
  return new Map(
    children.map((child) => [
      child,
      shares[child] !== undefined ? shares[child] * max : unshared > 0 ? pool / unshared : 0,
    ]),
  );
}

const knownPrice = (model: string): boolean =>
  defaultModelCatalog.priceUsage(model.replace(/-x?high$/, ''), {
    ...emptyTokenUsage(),
    inputTokens: 1_000_000,
  }).known;

/**
 * The budget warnings of reference §1.7 (`computeBudgetWarnings`) on a valid hank, of the ones the
 * reference names: W1 a codon cap larger than its allocation; W2 unallocated shares; W3
 * `exhaustWithPrompt` with a time budget; W4 a dollar budget on a model with no pricing; W5 a
 * zero effective budget; W6 `onExceeded: fail` with retry; W7 a `fail` codon that is not first in
 * a shared pool; W8 a codon time cap greater than its loop's.
 */
export function checkBudgetWarnings(config: HankConfig, warn: Warn): void {
  const hankBudget = config.overrides?.budget;
  const container = (
    budget: ContainerBudget | undefined,
    children: readonly string[],
    path: PropertyKey[],
  ) => {
    if (!budget) return undefined;
    const proportional = budget.allocation !== 'shared' && budget.maxDollars !== undefined;
    const shares = budget.shares ?? {};
    const shared = Object.values(shares).reduce((sum, share) => sum + share, 0);
    if (proportional && children.every((child) => shares[child] !== undefined) && shared < 1) {
      warn(
        [...path, 'shares'],
        'budget_unallocated_share',
        `Every child has a share but they add up to ${shared.toFixed(2)}: ${((1 - shared) * 100).toFixed(0)}% of the budget is allocated to nobody`,
      );
    }
    const allocations = proportional ? allocationsOf(budget, children) : undefined;
    for (const [child, allocation] of allocations ?? []) {
      if (allocation <= 0)
        warn(
          [...path, 'shares'],
          'budget_zero',
          `${JSON.stringify(child)} gets a zero budget (the shares take everything): it cannot run`,
        );
    }
    return { budget, allocations };
  };
  const hank = container(
    hankBudget,
    config.hank.map((item) => item.id),
    ['overrides', 'budget'],
  );
  if (hankBudget?.maxDollars === 0 || hankBudget?.maxTimeSeconds === 0)
    warn(['overrides', 'budget'], 'budget_zero', 'The hank budget is zero: no codon can run');

  const codonChecks = (
    codon: CodonConfig,
    path: PropertyKey[],
    scopes: { budget: ContainerBudget; allocation?: number; first: boolean; kind: string }[],
    loopTime?: number,
  ) => {
    const own = codon.budget;
    const onExceeded =
      own?.onExceeded ?? scopes.find((scope) => scope.budget.onExceeded)?.budget.onExceeded;
    for (const scope of scopes) {
      const limit = scope.allocation ?? scope.budget.maxDollars;
      if (own?.maxDollars !== undefined && limit !== undefined && own.maxDollars > limit) {
        warn(
          [...path, 'budget', 'maxDollars'],
          'budget_cap_above_allocation',
          `maxDollars ${own.maxDollars} is more than the ${limit} this codon gets from the ${scope.kind} budget; the smaller applies`,
        );
      }
      if (onExceeded === 'fail' && scope.budget.allocation === 'shared' && !scope.first) {
        warn(
          [...path, 'budget', 'onExceeded'],
          'budget_fail_not_first',
          `onExceeded "fail" in a shared ${scope.kind} budget: codons before this one may spend the pool, and then this codon fails the run without having run`,
        );
      }
    }
    if (codon.exhaustWithPrompt !== undefined && own?.maxTimeSeconds !== undefined) {
      warn(
        [...path, 'budget', 'maxTimeSeconds'],
        'budget_time_with_extensions',
        'exhaustWithPrompt with maxTimeSeconds: the time cap stops the extensions, whatever they are doing',
      );
    }
    const dollars =
      own?.maxDollars !== undefined ||
      scopes.some((scope) => scope.budget.maxDollars !== undefined);
    if (dollars && !knownPrice(codon.model)) {
      warn(
        [...path, 'model'],
        'budget_unpriced_model',
        `No price is known for the model ${JSON.stringify(codon.model)}: its cost counts as $0 and a dollar budget never stops it`,
      );
    }
    if (onExceeded === 'fail' && codon.onFailure === 'retry') {
      warn(
        [...path, 'onFailure'],
        'budget_fail_with_retry',
        'onExceeded "fail" with onFailure "retry": a budget failure is never retried',
      );
    }
    if (
      loopTime !== undefined &&
      own?.maxTimeSeconds !== undefined &&
      own.maxTimeSeconds > loopTime
    ) {
      warn(
        [...path, 'budget', 'maxTimeSeconds'],
        'budget_time_above_loop',
        `maxTimeSeconds ${own.maxTimeSeconds} is more than the loop's ${loopTime}; the loop's applies`,
      );
    }
  };

  type Scope = { budget: ContainerBudget; allocation?: number; first: boolean; kind: string };
  /** A codon's checks, or a loop's codons' with the loop's scope added to `outer`. */
  const itemChecks = (item: BranchItem, path: PropertyKey[], outer: Scope[]) => {
    if (!isLoopConfig(item)) {
      codonChecks(item, path, outer);
      return;
    }
    const loop = container(
      item.budget,
      item.codons.map((codon) => codon.id),
      [...path, 'budget'],
    );
    for (const [position, codon] of item.codons.entries()) {
      const scopes = [
        ...outer,
        ...(loop
          ? [
              {
                budget: loop.budget,
                allocation: loop.allocations?.get(codon.id),
                first: position === 0,
                kind: 'loop',
              },
            ]
          : []),
      ];
      codonChecks(codon, [...path, 'codons', position], scopes, item.budget?.maxTimeSeconds);
    }
  };
  for (const [index, item] of config.hank.entries()) {
    const hankScope = hank
      ? [
          {
            budget: hank.budget,
            allocation: hank.allocations?.get(item.id),
            first: index === 0,
            kind: 'hank',
          },
        ]
      : [];
    if (!isParallelConfig(item)) {
      itemChecks(item, ['hank', index], hankScope);
      continue;
    }
    // A block's budget is shared by its branches (its children), which start together: the
    // first codon of every branch is "first" in it.
    const resolver = resolverOf(item);
    const block = container(
      item.budget,
      [...item.branches.map((branch) => branch.id), ...(resolver ? [resolver.id] : [])],
      ['hank', index, 'budget'],
    );
    const blockScope = (child: string, first: boolean): Scope[] =>
      block
        ? [
            {
              budget: block.budget,
              allocation: block.allocations?.get(child),
              first,
              kind: 'block',
            },
          ]
        : [];
    for (const [branchIndex, branch] of item.branches.entries()) {
      for (const [at, inner] of branch.items.entries()) {
        itemChecks(
          inner,
          ['hank', index, 'branches', branchIndex, 'items', at],
          [
            ...hankScope.map((scope) => ({ ...scope, first: scope.first && at === 0 })),
            ...blockScope(branch.id, at === 0),
          ],
        );
      }
    }
    if (resolver) {
      codonChecks(
        resolver,
        ['hank', index, 'merge', 'onConflict', 'resolver'],
        [
          ...hankScope.map((scope) => ({ ...scope, first: false })),
          ...blockScope(resolver.id, false),
        ],
      );
    }
  }
}

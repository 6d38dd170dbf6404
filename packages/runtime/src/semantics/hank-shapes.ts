import fc from 'fast-check';
import { DEFAULT_COST_UNIT } from '../testing/semantics/outcome-agent.js';

// The shapes of a generated hank's top-level items (codons, loops) and of their budgets, which
// buildHank turns into hank.json (see semantics-arbitraries.ts for what the cases cover).

/** One cost unit in dollars: generated costs are whole units. */
export const UNIT = DEFAULT_COST_UNIT.dollars;

/** Half a unit between whole units: `budgetDollars(8)` is 0.5 .. 8.5 units. */
export const budgetDollars = (maxUnits: number) =>
  fc.integer({ min: 0, max: maxUnits }).map((units) => (units + 0.5) * UNIT);
const onExceeded = fc.constantFrom('complete', 'fail');

export interface CodonShape {
  fresh: boolean;
  onFailure: 'abort' | 'retry' | 'ignore';
  maxAttempts: number;
  extensions: number;
  budget: { maxDollars: number; onExceeded: string } | null;
  when: WhenShape | null;
}

/** A `when` on the status of the codon `back` places earlier in hank order (none before: none). */
export interface WhenShape {
  back: number;
  statuses: ('completed' | 'failed' | 'skipped' | 'not-run')[];
  negate: boolean;
}

export const whenShape: fc.Arbitrary<WhenShape> = fc.record({
  back: fc.integer({ min: 1, max: 3 }),
  statuses: fc.subarray(['completed', 'failed', 'skipped', 'not-run'] as const, { minLength: 1 }),
  negate: fc.boolean(),
});

export const codonShape: fc.Arbitrary<CodonShape> = fc.record({
  fresh: fc.boolean(),
  onFailure: fc.constantFrom('abort', 'retry', 'ignore'),
  maxAttempts: fc.integer({ min: 1, max: 3 }),
  extensions: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 3 })),
  budget: fc.option(fc.record({ maxDollars: budgetDollars(8), onExceeded }), { freq: 4 }),
  when: fc.option(whenShape, { freq: 4 }),
});

export const containerBudget = fc.record({
  maxDollars: budgetDollars(16),
  allocation: fc.constantFrom('shared', 'proportional', 'proportional-strict'),
  onExceeded,
});

export type TerminateOn =
  | { type: 'iterationLimit'; limit: number }
  | { type: 'contextExceeded' }
  | { type: 'plateau'; consensus: number; minIterations: number; maxIterations: number };

export const terminateOn: fc.Arbitrary<TerminateOn> = fc.oneof(
  fc.record({
    type: fc.constant('iterationLimit' as const),
    limit: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ type: fc.constant('contextExceeded' as const) }),
  fc.record({
    type: fc.constant('plateau' as const),
    consensus: fc.integer({ min: 1, max: 2 }),
    minIterations: fc.integer({ min: 1, max: 2 }),
    maxIterations: fc.integer({ min: 1, max: 3 }),
  }),
);

export type ItemShape =
  | { kind: 'codon'; codon: CodonShape }
  | {
      kind: 'loop';
      terminateOn: TerminateOn;
      codons: CodonShape[];
      budget: { maxDollars: number; allocation: string; onExceeded: string } | null;
      when: WhenShape | null;
    };

export const itemShape: fc.Arbitrary<ItemShape> = fc.oneof(
  { weight: 3, arbitrary: codonShape.map((codon) => ({ kind: 'codon' as const, codon })) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('loop' as const),
      terminateOn,
      codons: fc.array(codonShape, { minLength: 1, maxLength: 2 }),
      budget: fc.option(containerBudget, { freq: 3 }),
      when: fc.option(whenShape, { freq: 4 }),
    }),
  },
);

/** The item with no budget on it or on its codons (cases generated with `budgets: false`). */
export function withoutBudgets(item: ItemShape): ItemShape {
  if (item.kind === 'codon') return { kind: 'codon', codon: { ...item.codon, budget: null } };
  return {
    ...item,
    budget: null,
    codons: item.codons.map((codon) => ({ ...codon, budget: null })),
  };
}

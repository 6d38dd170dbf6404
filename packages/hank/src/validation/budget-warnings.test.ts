import { createModelCatalog, MODEL_CATALOG } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type ValidateHankOptions, validateHank } from '../index.js';

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'x',
  ...extra,
});
const hank = (items: unknown[], budget?: Record<string, unknown>) => ({
  meta: { name: 'b', version: '1.0.0' },
  ...(budget ? { overrides: { budget } } : {}),
  hank: items,
});
const budgetWarnings = (input: unknown, options: ValidateHankOptions = {}) => {
  const result = validateHank(input, options);
  expect(result.errors).toEqual([]);
  return result.warnings
    .filter((warning) => warning.code.startsWith('budget_'))
    .map((warning) => `${warning.code} @ ${warning.path}`);
};

describe('budget warnings (reference §1.7)', () => {
  it('none for a plain budget', () => {
    expect(budgetWarnings(hank([codon('a'), codon('b')], { maxDollars: 5 }))).toEqual([]);
    expect(budgetWarnings(hank([codon('a', { budget: { maxDollars: 1 } })]))).toEqual([]);
  });

  it('W1: a codon cap larger than its allocation', () => {
    expect(
      budgetWarnings(
        hank([codon('a', { budget: { maxDollars: 3 } }), codon('b')], {
          maxDollars: 4,
          allocation: 'proportional',
          shares: { a: 0.5 },
        }),
      ),
    ).toEqual(['budget_cap_above_allocation @ hank[0].budget.maxDollars']);
    expect(
      budgetWarnings(hank([codon('a', { budget: { maxDollars: 9 } })], { maxDollars: 4 })),
    ).toEqual(['budget_cap_above_allocation @ hank[0].budget.maxDollars']);
  });

  it('W2: shares that leave part of the budget to nobody', () => {
    expect(
      budgetWarnings(
        hank([codon('a'), codon('b')], {
          maxDollars: 4,
          allocation: 'proportional',
          shares: { a: 0.5, b: 0.25 },
        }),
      ),
    ).toEqual(['budget_unallocated_share @ overrides.budget.shares']);
  });

  it('W3: exhaustWithPrompt with a time budget', () => {
    expect(
      budgetWarnings(
        hank([codon('a', { exhaustWithPrompt: 'more', budget: { maxTimeSeconds: 60 } })]),
      ),
    ).toEqual(['budget_time_with_extensions @ hank[0].budget.maxTimeSeconds']);
  });

  it('W4: a dollar budget on a model with no price', () => {
    // Every model the built-in catalog accepts has a price; a model only the caller's catalog
    // knows (validateHank's `models`) is the one the price table lacks.
    const price = { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 };
    const models = createModelCatalog([
      ...MODEL_CATALOG,
      { id: 'claude-next-1', provider: 'anthropic', contextWindow: 200_000, price },
    ]);
    expect(
      budgetWarnings(hank([codon('a', { model: 'claude-next-1', budget: { maxDollars: 1 } })]), {
        models,
      }),
    ).toEqual(['budget_unpriced_model @ hank[0].model']);
    // Without a dollar budget, no price is needed.
    expect(budgetWarnings(hank([codon('a', { model: 'claude-next-1' })]), { models })).toEqual([]);
  });

  it('W5: a zero effective budget', () => {
    expect(
      budgetWarnings(
        hank([codon('a'), codon('b')], {
          maxDollars: 4,
          allocation: 'proportional-strict',
          shares: { a: 1 },
        }),
      ),
    ).toEqual(['budget_zero @ overrides.budget.shares']);
  });

  it('W6: onExceeded fail with retry', () => {
    expect(
      budgetWarnings(
        hank([codon('a', { onFailure: 'retry', budget: { maxDollars: 1, onExceeded: 'fail' } })]),
      ),
    ).toEqual(['budget_fail_with_retry @ hank[0].onFailure']);
  });

  it('W7: a fail codon that is not first in a shared pool', () => {
    expect(
      budgetWarnings(
        hank([codon('a'), codon('b', { budget: { onExceeded: 'fail' } })], { maxDollars: 1 }),
      ),
    ).toEqual(['budget_fail_not_first @ hank[1].budget.onExceeded']);
  });

  it('W8: a codon time cap greater than its loop time cap', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'l',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      budget: { maxTimeSeconds: 60 },
      codons: [codon('x', { budget: { maxTimeSeconds: 120 } })],
    };
    expect(budgetWarnings(hank([loop]))).toEqual([
      'budget_time_above_loop @ hank[0].codons[0].budget.maxTimeSeconds',
    ]);
  });
});

import { type UserStep, validateHank } from '@hankweave/hank';
import type { HankConfig } from '@hankweave/types';
import fc from 'fast-check';
import type { SemanticsCase } from '../testing/semantics/play-case.js';
import { blockShape, oneStoppingBranch, withoutBlockBudgets } from './block-shapes.js';
import { buildHank } from './build-hank.js';
import { budgetDollars, containerBudget, itemShape, withoutBudgets } from './hank-shapes.js';
import { outcomeTable } from './outcome-arbitraries.js';

// Generated cases for the semantics property: hanks with loops of every termination type,
// extensions, every failure policy with retries, dollar budgets at every level (codon, loop,
// hank, runtime), continue-previous chains and plateau votes; outcomes for every attempt; and the
// person's steps after each stop, and `when` conditions on earlier codons' statuses; now and then
// a parallel block (issue 36) of 2–3 branches, each 1–2 codons or a loop, with or without
// `maxConcurrency`, each merge policy, and `when` on the block or its codons (see blockShape).
// Every hank passes validateHank. Costs are whole cost units and
// budgets lie half a unit between them; allocations can still add up to exactly a container's
// budget, where both sides count float noise as nothing (DOLLAR_TOLERANCE of @hankweave/hank).
// The shapes are in hank-shapes.ts and block-shapes.ts, hank.json from them in build-hank.ts,
// the agents' outcomes in outcome-arbitraries.ts.

/** One case in BLOCK_ONE_IN gets a parallel block (unless told `blocks: 'always'`). */
const BLOCK_ONE_IN = 15;

const userStep: fc.Arbitrary<UserStep> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'resume' as const }) },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 0, max: 5 })
      .map((target) => ({ kind: 'rollback' as const, target })),
  },
);

/** A generated case with its validated hank (which the interpreter reads). */
export interface GeneratedCase extends SemanticsCase {
  config: HankConfig;
}

/**
 * Cases for the semantics property; `steps: false` leaves out resumes and rollbacks, `blocks:
 * false` parallel blocks (`'always'`: every hank has one). A block whose branches may run at once comes without the hank's budget
 * and `--max-cost` (its branch loops never have one): the interpreter gates each branch codon on
 * the spend of every attempt before it in the schedule, one attempt at a time, while concurrent
 * branches gate on what is spent when they start, with their siblings' attempts still running.
 * With `maxConcurrency: 1` the branches run one after another and every budget stays, the
 * resolver's gate included.
 */
export function semanticsCase(
  options: { steps?: boolean; budgets?: boolean; blocks?: boolean | 'always' } = {},
): fc.Arbitrary<GeneratedCase> {
  const budgets = options.budgets ?? true;
  return fc
    .record({
      items: fc.array(itemShape, { minLength: 1, maxLength: 4 }),
      block:
        options.blocks === false
          ? fc.constant(null)
          : options.blocks === 'always'
            ? blockShape
            : fc.oneof(
                { weight: BLOCK_ONE_IN - 1, arbitrary: fc.constant(null) },
                { weight: 1, arbitrary: blockShape },
              ),
      hankBudget: budgets ? fc.option(containerBudget, { freq: 3 }) : fc.constant(null),
      maxCost: budgets ? fc.option(budgetDollars(24), { freq: 6 }) : fc.constant(null),
    })
    .map(({ items, block, hankBudget, maxCost }) => {
      const shapes = budgets ? items : items.map(withoutBudgets);
      const noHankBudget = block !== null && block.maxConcurrency !== 1;
      // Around a block the runtime applies only the `shared` allocation of the hank's budget (it
      // refuses the others: not-in-effect.ts of @hankweave/hank).
      const hank = buildHank(
        shapes,
        noHankBudget || !hankBudget
          ? null
          : block
            ? { ...hankBudget, allocation: 'shared' }
            : hankBudget,
        block && oneStoppingBranch(budgets ? block : withoutBlockBudgets(block)),
      );
      const result = validateHank(hank);
      return {
        hank,
        config: result.config as HankConfig,
        valid: result.valid,
        maxCost: noHankBudget ? null : maxCost,
      };
    })
    .filter((built) => built.valid)
    .chain(({ hank, config, maxCost }) =>
      fc
        .record({
          outcomes: outcomeTable(config),
          steps:
            options.steps === false
              ? fc.constant([] as UserStep[])
              : fc.array(userStep, { maxLength: 2 }),
        })
        .map(({ outcomes, steps }) => ({
          hank,
          config,
          outcomes,
          steps,
          ...(maxCost !== null ? { maxCost } : {}),
        })),
    );
}

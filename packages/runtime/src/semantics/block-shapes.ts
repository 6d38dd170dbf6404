import { type HankConfig, isParallelConfig } from '@hankweave/types';
import fc from 'fast-check';
import {
  type CodonShape,
  codonShape,
  type TerminateOn,
  terminateOn,
  type WhenShape,
  whenShape,
} from './hank-shapes.js';

// The shape of a generated hank's parallel block (issue 36), and what keeps a block within what
// the spec describes (see semantics-arbitraries.ts for what the cases cover).

/** A branch item: a codon, or a loop of one codon (branch loops get no budget). */
type BranchItemShape =
  | { kind: 'codon'; codon: CodonShape }
  | { kind: 'loop'; terminateOn: TerminateOn; codons: CodonShape[]; when: WhenShape | null };

const branchItemShape: fc.Arbitrary<BranchItemShape> = fc.oneof(
  { weight: 4, arbitrary: codonShape.map((codon) => ({ kind: 'codon' as const, codon })) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('loop' as const),
      terminateOn,
      codons: fc.array(codonShape, { minLength: 1, maxLength: 1 }),
      when: fc.option(whenShape, { freq: 4 }),
    }),
  },
);

/**
 * A top-level parallel block: 2–3 branches of 1–2 items, `maxConcurrency` absent, 1 or 2, each
 * merge policy (`fail`, `ordered`, a resolver), maybe a `when`; `at` places it among the items.
 */
export interface BlockShape {
  branches: BranchItemShape[][];
  /** The one branch whose failures may stop the run while branches run at once (modulo). */
  stopper: number;
  /** Every branch codon writes `shared.txt` (tracked): two branches that ran one conflict. */
  writes: boolean;
  maxConcurrency: number | null;
  onConflict: 'fail' | 'ordered' | 'resolver';
  resolver: CodonShape;
  when: WhenShape | null;
  at: number;
}

export const blockShape: fc.Arbitrary<BlockShape> = fc.record({
  branches: fc.array(fc.array(branchItemShape, { minLength: 1, maxLength: 2 }), {
    minLength: 2,
    maxLength: 3,
  }),
  maxConcurrency: fc.option(fc.integer({ min: 1, max: 2 }), { freq: 2 }),
  onConflict: fc.constantFrom('fail', 'ordered', 'resolver'),
  resolver: codonShape,
  when: fc.option(whenShape, { freq: 3 }),
  at: fc.nat({ max: 4 }),
  stopper: fc.nat({ max: 2 }),
  writes: fc.boolean(),
});

/** The file the branch codons of a block with `writes` write, and track. */
export const SHARED_FILE = 'shared.txt';

/**
 * While branches run at once, only the block's `stopper` branch may stop the run: the others'
 * codons ignore their failures. Two attempts in flight that both fail in a way that stops the run
 * both end on their own and are both recorded, while the interpreter runs one attempt at a time
 * and stops at the first (RELIABILITY.md, "Parallel blocks in the property"); one stopping branch
 * keeps every case within what the spec describes. No branch has a plateau loop either: an error vote abandons its
 * iteration, whose record stays on the runtime's thread (a prefix of its records in start order)
 * when a sibling's record after it moved the plan on, while the interpreter's thread drops it, so
 * a rollback step's "n-th completed codon" names different codons (a difference of the test's
 * step, not of what runs). With `maxConcurrency: 1` every policy and loop stays everywhere.
 */
export function oneStoppingBranch(block: BlockShape): BlockShape {
  if (block.maxConcurrency === 1) return block;
  const stopper = block.stopper % block.branches.length;
  const ignoring = (codon: CodonShape): CodonShape => ({ ...codon, onFailure: 'ignore' });
  return {
    ...block,
    branches: block.branches.map((items, b) =>
      items.map((item) => {
        if (item.kind === 'codon') {
          return b === stopper ? item : { kind: 'codon', codon: ignoring(item.codon) };
        }
        return {
          ...item,
          terminateOn:
            item.terminateOn.type === 'plateau'
              ? { type: 'iterationLimit', limit: item.terminateOn.maxIterations }
              : item.terminateOn,
          codons: b === stopper ? item.codons : item.codons.map(ignoring),
        };
      }),
    ),
  };
}

/** True when a block's branches may run at once (see semanticsCase on budgets and interrupts). */
export const concurrentBlock = (config: HankConfig): boolean =>
  config.hank.some((item) => isParallelConfig(item) && item.maxConcurrency !== 1);

/** The block with no budget on its codons or its resolver (cases with `budgets: false`). */
export function withoutBlockBudgets(block: BlockShape): BlockShape {
  const codon = (shape: CodonShape): CodonShape => ({ ...shape, budget: null });
  return {
    ...block,
    resolver: codon(block.resolver),
    branches: block.branches.map((items) =>
      items.map((item) =>
        item.kind === 'codon'
          ? { kind: 'codon', codon: codon(item.codon) }
          : { ...item, codons: item.codons.map(codon) },
      ),
    ),
  };
}

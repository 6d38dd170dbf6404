import type { HankConfig } from '@hankweave/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codon as baseCodon, hankOf } from '../../test/builders.js';
import { interpret } from './interpret.js';
import type { AttemptOutcome, UserStep } from './outcomes.js';

// Random hanks with a parallel block of 2–3 branches, random outcomes, interleavings, merge
// conflicts and steps: the interpreter ends, each branch runs in its own order, and nothing of a
// branch runs after its block merged in the same process run.

/** A codon with the given failure policy, the one thing the property varies of a codon. */
const codon = (id: string, onFailure: string) => baseCodon(id, { onFailure });

const onFailure = fc.constantFrom('abort', 'retry', 'ignore');
/** A branch item: a codon, or a loop of one or two codons (1–2 iterations). */
const itemShape = fc.oneof(
  onFailure.map((policy) => ({ kind: 'codon' as const, policy })),
  fc.record({
    kind: fc.constant('loop' as const),
    limit: fc.integer({ min: 1, max: 2 }),
    policies: fc.array(onFailure, { minLength: 1, maxLength: 2 }),
  }),
);
const hankShape = fc.record({
  before: fc.boolean(),
  after: fc.boolean(),
  branches: fc.array(fc.array(itemShape, { minLength: 1, maxLength: 3 }), {
    minLength: 2,
    maxLength: 3,
  }),
  merge: fc.constantFrom('fail', 'ordered', 'resolver'),
});

/** Where each codon id sits in its branch: [item, codon in its loop]. */
type Positions = Map<string, [number, number]>;

function build(shape: {
  before: boolean;
  after: boolean;
  branches: (
    | { kind: 'codon'; policy: string }
    | { kind: 'loop'; limit: number; policies: string[] }
  )[][];
  merge: string;
}): { hank: HankConfig; ids: string[]; positions: Positions } {
  const ids: string[] = [];
  const positions: Positions = new Map();
  const branches = shape.branches.map((items, b) => ({
    id: `b${b}`,
    items: items.map((item, at) => {
      if (item.kind === 'codon') {
        const id = `b${b}i${at}`;
        ids.push(id);
        positions.set(id, [at, 0]);
        return codon(id, item.policy);
      }
      return {
        type: 'loop',
        id: `b${b}l${at}`,
        name: 'loop',
        terminateOn: { type: 'iterationLimit', limit: item.limit },
        codons: item.policies.map((policy, inner) => {
          const id = `b${b}l${at}c${inner}`;
          for (let iteration = 0; iteration < item.limit; iteration++)
            ids.push(`${id}#${iteration}`);
          positions.set(id, [at, inner]);
          return codon(id, policy);
        }),
      };
    }),
  }));
  const items: unknown[] = [];
  if (shape.before) items.push(codon('before', 'abort'));
  items.push({
    type: 'parallel',
    id: 'p',
    name: 'p',
    branches,
    merge: {
      onConflict: shape.merge === 'resolver' ? { resolver: codon('fix', 'retry') } : shape.merge,
    },
  });
  if (shape.after) items.push(codon('after', 'abort'));
  ids.push('before', 'after', 'p.resolve');
  return { hank: hankOf(items, { meta: { name: 'fuzz', version: '1.0.0' } }), ids, positions };
}

const outcome: fc.Arbitrary<AttemptOutcome | null> = fc.constantFrom<AttemptOutcome | null>(
  null,
  null,
  null,
  { sessions: [{ end: 'fatal-error', cost: 0.01 }] },
  { sessions: [{ end: 'retriable-error', cost: 0.01 }] },
  { stoppedBy: 'interrupt' },
  { stoppedBy: 'skip' },
);
const step: fc.Arbitrary<UserStep> = fc.oneof(
  fc.constant({ kind: 'resume' as const }),
  fc.nat(20).map((target) => ({ kind: 'rollback' as const, target })),
);

describe('interpret(): parallel blocks (property)', () => {
  it('ends, runs each branch in its own order, and runs no branch after its merge', () => {
    fc.assert(
      fc.property(
        hankShape.chain((shape) => {
          const built = build(shape);
          return fc.record({
            built: fc.constant(built),
            outcomes: fc.dictionary(
              fc.constantFrom(...built.ids),
              fc.array(outcome, { maxLength: 3 }),
            ),
            choices: fc.array(fc.nat(2), { maxLength: 30 }),
            conflicts: fc.array(fc.boolean(), { maxLength: 4 }),
            steps: fc.array(step, { maxLength: 3 }),
          });
        }),
        ({ built, outcomes, choices, conflicts, steps }) => {
          let turn = 0;
          const result = interpret({
            hank: built.hank,
            outcome: (codonId, attempt) => outcomes[codonId]?.[attempt] ?? undefined,
            schedule: (_block, ready) => ready[(choices[turn++] ?? 0) % ready.length] as string,
            mergeConflicts: (_block, attempt) => conflicts[attempt] ?? false,
            steps,
          });
          expect(result.stops).toHaveLength(steps.length + 1);
          // Each branch, within one process run, never goes back in its own order.
          const last = new Map<string, [number, number, number]>();
          for (const execution of result.executions) {
            if (!execution.branch) continue;
            const [base, iteration] = execution.codonId.split('#');
            const [item, inner] = built.positions.get(base as string) as [number, number];
            const place: [number, number, number] = [item, Number(iteration ?? 0), inner];
            const key = `${execution.session}/${execution.branch.branchId}`;
            const before = last.get(key);
            if (before) {
              const order = before[0] - place[0] || before[1] - place[1] || before[2] - place[2];
              expect(order).toBeLessThanOrEqual(0);
            }
            last.set(key, place);
          }
          // Nothing of a branch after its block's merge, unless a step (a new process run) came between.
          for (const merge of result.merges) {
            const later = result.executions
              .slice(merge.afterExecutions)
              .filter(
                (execution) =>
                  execution.branch?.blockId === merge.blockId &&
                  execution.session === merge.session,
              );
            expect(later).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

import type { AttemptOutcome, SessionEnd } from '@hankweave/hank';
import {
  type BranchItem,
  type HankConfig,
  hankLoops,
  isLoopConfig,
  isParallelConfig,
  itemCodons,
} from '@hankweave/types';
import fc from 'fast-check';
import type { OutcomeTable } from '../testing/semantics/outcome-table.js';
import { concurrentBlock, SHARED_FILE } from './block-shapes.js';
import { UNIT } from './hank-shapes.js';

// What the scripted agents answer in a generated case: an outcome for every attempt of every
// runtime id the hank may run (see semantics-arbitraries.ts for what the cases cover).

/** How many iterations a loop's codons get explicit outcomes for (later ones use the fallback). */
const ITERATIONS = 4;
/** A contextExceeded loop's codons overflow from this iteration on unless told otherwise. */
const OVERFLOW_FROM = 3;

const sessionEnd: fc.Arbitrary<SessionEnd> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('ok' as const) },
  { weight: 2, arbitrary: fc.constant('context-exceeded' as const) },
  { weight: 2, arbitrary: fc.constant('retriable-error' as const) },
  { weight: 1, arbitrary: fc.constant('fatal-error' as const) },
);
const sessionCost = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.constant(2) },
  { weight: 1, arbitrary: fc.constant(3) },
);

const attemptOutcome: fc.Arbitrary<AttemptOutcome> = fc
  .record({
    sessions: fc.array(fc.record({ end: sessionEnd, units: sessionCost }), {
      minLength: 1,
      maxLength: 4,
    }),
    stoppedBy: fc.oneof(
      { weight: 14, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constant('skip' as const) },
      { weight: 1, arbitrary: fc.constant('interrupt' as const) },
    ),
    vote: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constant('stop' as const) },
      { weight: 2, arbitrary: fc.constant('continue' as const) },
      { weight: 1, arbitrary: fc.constant('error' as const) },
    ),
  })
  .map(({ sessions, stoppedBy, vote }) => ({
    sessions: sessions.map(({ end, units }) => ({ end, cost: units * UNIT })),
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(vote ? { vote } : {}),
  }));

/** Runtime ids of an item's codons: a codon's id, a loop's ids per iteration. */
const itemIds = (item: BranchItem): string[] =>
  isLoopConfig(item)
    ? item.codons.flatMap((codon) =>
        Array.from({ length: ITERATIONS }, (_, iteration) => `${codon.id}#${iteration}`),
      )
    : [item.id];

/**
 * Runtime ids every codon of the hank may run under: top-level ids, loop ids per iteration, a
 * block's branch codons likewise, and its resolver (`<blockId>.resolve`); the branch codons' ids
 * are the second list.
 */
function runtimeIds(config: HankConfig): { all: string[]; branch: string[] } {
  const branch: string[] = [];
  const all = config.hank.flatMap((item) => {
    if (!isParallelConfig(item)) return itemIds(item);
    const ids = item.branches.flatMap((candidate) => candidate.items.flatMap(itemIds));
    branch.push(...ids);
    return [...ids, `${item.id}.resolve`];
  });
  return { all, branch };
}

/**
 * Outcomes for every runtime id. While a block's branches run at once, no outcome of a branch
 * codon interrupts: a person's Ctrl-C stops every branch, and which of two concurrent attempts
 * it interrupted is timing, not semantics (the interpreter runs one attempt at a time).
 */
export const outcomeTable = (config: HankConfig): fc.Arbitrary<OutcomeTable> => {
  const { all: ids, branch } = runtimeIds(config);
  const noInterrupt = new Set(concurrentBlock(config) ? branch : []);
  // The branch codons that track the shared file write it (see BlockShape.writes).
  const writes = Object.fromEntries(
    config.hank
      .filter(isParallelConfig)
      .flatMap((block) =>
        block.branches.flatMap((candidate) => candidate.items.flatMap(itemCodons)),
      )
      .filter((codon) => codon.checkpointedFiles?.includes(SHARED_FILE))
      .map((codon) => [codon.id, SHARED_FILE]),
  );
  const maxExtensions = Math.max(
    0,
    ...config.hank.flatMap((item) =>
      itemCodons(item).map((codon) => (codon.exhaustWithPrompt ? codon.maxExtensions : 0)),
    ),
  );
  return fc
    .tuple(
      ...ids.map(() =>
        fc.array(fc.option(attemptOutcome, { freq: 2, nil: null }), { maxLength: 3 }),
      ),
    )
    .map((lists) => ({
      outcomes: Object.fromEntries(
        ids.map((id, at) => [
          id,
          noInterrupt.has(id)
            ? (lists[at] ?? []).map((outcome) => outcome && withoutInterrupt(outcome))
            : (lists[at] ?? []),
        ]),
      ),
      fallbackCost: UNIT,
      contextLoops: {
        codonIds: hankLoops(config).flatMap((loop) =>
          loop.terminateOn.type === 'contextExceeded' ? loop.codons.map((codon) => codon.id) : [],
        ),
        overflowFrom: OVERFLOW_FROM,
      },
      maxSessions: 1 + maxExtensions,
      ...(Object.keys(writes).length > 0 ? { writes } : {}),
    }));
};

function withoutInterrupt(outcome: AttemptOutcome): AttemptOutcome {
  if (outcome.stoppedBy !== 'interrupt') return outcome;
  const { stoppedBy: _, ...rest } = outcome;
  return rest;
}

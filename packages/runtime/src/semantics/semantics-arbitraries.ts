import { type AttemptOutcome, type SessionEnd, type UserStep, validateHank } from '@hankweave/hank';
import { type HankConfig, isLoopConfig, itemCodons } from '@hankweave/types';
import fc from 'fast-check';
import { DEFAULT_COST_UNIT } from '../testing/semantics/outcome-agent.js';
import type { OutcomeTable } from '../testing/semantics/outcome-table.js';
import type { SemanticsCase } from '../testing/semantics/play-case.js';

// Generated cases for the semantics property: hanks with loops of every termination type,
// extensions, every failure policy with retries, dollar budgets at every level (codon, loop,
// hank, runtime), continue-previous chains and plateau votes; outcomes for every attempt; and the
// person's steps after each stop, and `when` conditions on earlier codons' statuses. Every hank passes validateHank. Costs are whole cost units and
// budgets lie half a unit between them; allocations can still add up to exactly a container's
// budget, where both sides count float noise as nothing (DOLLAR_TOLERANCE of @hankweave/hank).

const MODEL = 'claude-sonnet-4-5';
const UNIT = DEFAULT_COST_UNIT.dollars;
/** How many iterations a loop's codons get explicit outcomes for (later ones use the fallback). */
const ITERATIONS = 4;
/** A contextExceeded loop's codons overflow from this iteration on unless told otherwise. */
const OVERFLOW_FROM = 3;

/** Half a unit between whole units: `budgetDollars(8)` is 0.5 .. 8.5 units. */
const budgetDollars = (maxUnits: number) =>
  fc.integer({ min: 0, max: maxUnits }).map((units) => (units + 0.5) * UNIT);
const onExceeded = fc.constantFrom('complete', 'fail');

interface CodonShape {
  fresh: boolean;
  onFailure: 'abort' | 'retry' | 'ignore';
  maxAttempts: number;
  extensions: number;
  budget: { maxDollars: number; onExceeded: string } | null;
  when: WhenShape | null;
}

/** A `when` on the status of the codon `back` places earlier in hank order (none before: none). */
interface WhenShape {
  back: number;
  statuses: ('completed' | 'failed' | 'skipped' | 'not-run')[];
  negate: boolean;
}

const whenShape: fc.Arbitrary<WhenShape> = fc.record({
  back: fc.integer({ min: 1, max: 3 }),
  statuses: fc.subarray(['completed', 'failed', 'skipped', 'not-run'] as const, { minLength: 1 }),
  negate: fc.boolean(),
});

/** The `when` of a codon (or loop) whose earliest possible target is codon `c{first}`. */
function whenOf(shape: WhenShape | null, first: number): Record<string, unknown> {
  if (!shape || first - shape.back < 0) return {};
  const condition = { codon: `c${first - shape.back}`, status: shape.statuses };
  return { when: shape.negate ? { not: condition } : condition };
}

const codonShape: fc.Arbitrary<CodonShape> = fc.record({
  fresh: fc.boolean(),
  onFailure: fc.constantFrom('abort', 'retry', 'ignore'),
  maxAttempts: fc.integer({ min: 1, max: 3 }),
  extensions: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 3 })),
  budget: fc.option(fc.record({ maxDollars: budgetDollars(8), onExceeded }), { freq: 4 }),
  when: fc.option(whenShape, { freq: 4 }),
});

const containerBudget = fc.record({
  maxDollars: budgetDollars(16),
  allocation: fc.constantFrom('shared', 'proportional', 'proportional-strict'),
  onExceeded,
});

type TerminateOn =
  | { type: 'iterationLimit'; limit: number }
  | { type: 'contextExceeded' }
  | { type: 'plateau'; consensus: number; minIterations: number; maxIterations: number };

const terminateOn: fc.Arbitrary<TerminateOn> = fc.oneof(
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

type ItemShape =
  | { kind: 'codon'; codon: CodonShape }
  | {
      kind: 'loop';
      terminateOn: TerminateOn;
      codons: CodonShape[];
      budget: { maxDollars: number; allocation: string; onExceeded: string } | null;
      when: WhenShape | null;
    };

const itemShape: fc.Arbitrary<ItemShape> = fc.oneof(
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

/**
 * hank.json from shapes, with the validation rules applied where a shape breaks one: a
 * contextExceeded loop's codons continue the previous session; a codon after an extending codon
 * or after a contextExceeded loop starts fresh; an extending codon inside a loop of two codons
 * would be continued, so it does not extend there; plateau bounds are ordered.
 */
function buildHank(items: ItemShape[], hankBudget: unknown): unknown {
  let index = 0;
  let previous: { extends: boolean; contextLoop: boolean } | undefined;
  const codonOf = (shape: CodonShape, where: { contextLoop: boolean; loopSize: number }) => {
    const position = index++;
    const id = `c${position}`;
    const mustBeFresh = previous?.extends === true || previous?.contextLoop === true;
    const fresh = where.contextLoop ? false : mustBeFresh || shape.fresh;
    const extensions = where.loopSize > 1 ? 0 : shape.extensions;
    const codon: Record<string, unknown> = {
      id,
      name: id,
      model: MODEL,
      continuationMode: fresh ? 'fresh' : 'continue-previous',
      promptText: `Do ${id}.`,
      onFailure: shape.onFailure,
      ...(shape.onFailure === 'retry'
        ? { retryConfig: { maxAttempts: shape.maxAttempts, delayMs: 0 } }
        : {}),
      ...(extensions > 0 ? { exhaustWithPrompt: 'Go on.', maxExtensions: extensions } : {}),
      ...(shape.budget ? { budget: shape.budget } : {}),
      ...whenOf(shape.when, position),
    };
    previous = { extends: extensions > 0, contextLoop: false };
    return codon;
  };
  const hank = items.map((item, position) => {
    if (item.kind === 'codon') return codonOf(item.codon, { contextLoop: false, loopSize: 1 });
    const contextLoop = item.terminateOn.type === 'contextExceeded';
    const terminate =
      item.terminateOn.type === 'plateau'
        ? {
            ...item.terminateOn,
            maxIterations: Math.max(item.terminateOn.maxIterations, item.terminateOn.minIterations),
          }
        : item.terminateOn;
    const first = index;
    const codons = item.codons.map((shape) =>
      codonOf(shape, { contextLoop, loopSize: item.codons.length }),
    );
    previous = { extends: previous?.extends ?? false, contextLoop };
    return {
      type: 'loop',
      id: `loop${position}`,
      name: `loop${position}`,
      terminateOn: terminate,
      codons,
      ...(item.budget ? { budget: item.budget } : {}),
      ...whenOf(item.when, first),
    };
  });
  return {
    meta: { name: 'semantics', version: '1.0.0' },
    ...(hankBudget ? { overrides: { budget: hankBudget } } : {}),
    hank,
  };
}

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

/** Runtime ids every codon of the hank may run under: top-level ids, loop ids per iteration. */
function runtimeIds(config: HankConfig): string[] {
  return config.hank.flatMap((item) =>
    isLoopConfig(item)
      ? item.codons.flatMap((codon) =>
          Array.from({ length: ITERATIONS }, (_, iteration) => `${codon.id}#${iteration}`),
        )
      : [item.id],
  );
}

const outcomeTable = (config: HankConfig): fc.Arbitrary<OutcomeTable> => {
  const ids = runtimeIds(config);
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
      outcomes: Object.fromEntries(ids.map((id, at) => [id, lists[at] ?? []])),
      fallbackCost: UNIT,
      contextLoops: {
        codonIds: config.hank.flatMap((item) =>
          isLoopConfig(item) && item.terminateOn.type === 'contextExceeded'
            ? item.codons.map((codon) => codon.id)
            : [],
        ),
        overflowFrom: OVERFLOW_FROM,
      },
      maxSessions: 1 + maxExtensions,
    }));
};

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

/** Cases for the semantics property; `steps: false` leaves out resumes and rollbacks. */
export function semanticsCase(
  options: { steps?: boolean; budgets?: boolean } = {},
): fc.Arbitrary<GeneratedCase> {
  const budgets = options.budgets ?? true;
  return fc
    .record({
      items: fc.array(itemShape, { minLength: 1, maxLength: 4 }),
      hankBudget: budgets ? fc.option(containerBudget, { freq: 3 }) : fc.constant(null),
      maxCost: budgets ? fc.option(budgetDollars(24), { freq: 6 }) : fc.constant(null),
    })
    .map(({ items, hankBudget, maxCost }) => {
      const shapes = budgets ? items : items.map(withoutBudgets);
      const hank = buildHank(shapes, hankBudget);
      const result = validateHank(hank);
      return { hank, config: result.config as HankConfig, valid: result.valid, maxCost };
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

function withoutBudgets(item: ItemShape): ItemShape {
  if (item.kind === 'codon') return { kind: 'codon', codon: { ...item.codon, budget: null } };
  return {
    ...item,
    budget: null,
    codons: item.codons.map((codon) => ({ ...codon, budget: null })),
  };
}

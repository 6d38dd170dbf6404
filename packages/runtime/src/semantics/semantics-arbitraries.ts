import { type AttemptOutcome, type SessionEnd, type UserStep, validateHank } from '@hankweave/hank';
import {
  type BranchItem,
  type HankConfig,
  hankLoops,
  isLoopConfig,
  isParallelConfig,
  itemCodons,
} from '@hankweave/types';
import fc from 'fast-check';
import { DEFAULT_COST_UNIT } from '../testing/semantics/outcome-agent.js';
import type { OutcomeTable } from '../testing/semantics/outcome-table.js';
import type { SemanticsCase } from '../testing/semantics/play-case.js';

// Generated cases for the semantics property: hanks with loops of every termination type,
// extensions, every failure policy with retries, dollar budgets at every level (codon, loop,
// hank, runtime), continue-previous chains and plateau votes; outcomes for every attempt; and the
// person's steps after each stop, and `when` conditions on earlier codons' statuses; now and then
// a parallel block (issue 36) of 2–3 branches, each 1–2 codons or a loop, with or without
// `maxConcurrency`, each merge policy, and `when` on the block or its codons (see blockShape).
// Every hank passes validateHank. Costs are whole cost units and
// budgets lie half a unit between them; allocations can still add up to exactly a container's
// budget, where both sides count float noise as nothing (DOLLAR_TOLERANCE of @hankweave/hank).

const MODEL = 'claude-sonnet-4-5';
const UNIT = DEFAULT_COST_UNIT.dollars;
/** How many iterations a loop's codons get explicit outcomes for (later ones use the fallback). */
const ITERATIONS = 4;
/** A contextExceeded loop's codons overflow from this iteration on unless told otherwise. */
const OVERFLOW_FROM = 3;
/** One case in BLOCK_ONE_IN gets a parallel block (unless told `blocks: 'always'`). */
const BLOCK_ONE_IN = 15;

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

/**
 * The `when` of a codon (or loop, or block) on the codon `back` places from the end of `allowed`,
 * the ids it may name (none that far back: no `when`).
 */
function whenOf(shape: WhenShape | null, allowed: readonly string[]): Record<string, unknown> {
  const target = shape ? allowed[allowed.length - shape.back] : undefined;
  if (!shape || target === undefined) return {};
  const condition = { codon: target, status: shape.statuses };
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
interface BlockShape {
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

const blockShape: fc.Arbitrary<BlockShape> = fc.record({
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
const SHARED_FILE = 'shared.txt';

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
function oneStoppingBranch(block: BlockShape): BlockShape {
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

/**
 * hank.json from shapes, with the validation rules applied where a shape breaks one: a
 * contextExceeded loop's codons continue the previous session; a codon after an extending codon
 * or after a contextExceeded loop starts fresh; an extending codon inside a loop of two codons
 * would be continued, so it does not extend there; plateau bounds are ordered. In a block: the
 * first codon of a branch and the codon after the block start fresh (no session crosses a
 * block's boundary), a branch never starts with a contextExceeded loop (its codons continue), a
 * branch codon's `when` names a codon before the block or earlier in its own branch, and the
 * resolver starts fresh with no `when`. Codon ids are `c0`, `c1`, … in hank order, branches
 * included (the resolver is `r{position}`), so they are unique across the hank.
 */
function buildHank(items: ItemShape[], hankBudget: unknown, block: BlockShape | null): unknown {
  let index = 0;
  let previous: { extends: boolean; contextLoop: boolean; boundary?: true } | undefined;
  /** The codon ids so far, in hank order. */
  const ids: string[] = [];
  const codonOf = (
    shape: CodonShape,
    where: {
      contextLoop: boolean;
      loopSize: number;
      allowed?: readonly string[];
      tracked?: readonly string[];
    },
  ) => {
    const position = index++;
    const id = `c${position}`;
    const mustBeFresh =
      previous?.extends === true || previous?.contextLoop === true || previous?.boundary === true;
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
      ...whenOf(shape.when, where.allowed ?? ids),
      ...(where.tracked ? { checkpointedFiles: where.tracked } : {}),
    };
    ids.push(id);
    previous = { extends: extensions > 0, contextLoop: false };
    return codon;
  };
  const loopOf = (
    item: { terminateOn: TerminateOn; codons: CodonShape[]; when: WhenShape | null },
    id: string,
    extra: { budget?: unknown; allowed?: string[]; tracked?: readonly string[] },
  ) => {
    const contextLoop = item.terminateOn.type === 'contextExceeded';
    const terminate =
      item.terminateOn.type === 'plateau'
        ? {
            ...item.terminateOn,
            maxIterations: Math.max(item.terminateOn.maxIterations, item.terminateOn.minIterations),
          }
        : item.terminateOn;
    const when = whenOf(item.when, extra.allowed ?? ids);
    const codons = item.codons.map((shape) =>
      codonOf(shape, {
        contextLoop,
        loopSize: item.codons.length,
        ...(extra.allowed ? { allowed: extra.allowed } : {}),
        ...(extra.tracked ? { tracked: extra.tracked } : {}),
      }),
    );
    previous = { extends: previous?.extends ?? false, contextLoop };
    return {
      type: 'loop',
      id,
      name: id,
      terminateOn: terminate,
      codons,
      ...(extra.budget ? { budget: extra.budget } : {}),
      ...when,
    };
  };
  const blockOf = (shape: BlockShape, position: number) => {
    const id = `par${position}`;
    const before = [...ids];
    const when = whenOf(shape.when, before);
    const tracked = shape.writes ? [SHARED_FILE] : undefined;
    const branches = shape.branches.map((branchItems, b) => {
      previous = { extends: false, contextLoop: false, boundary: true };
      const own: string[] = [];
      const items = branchItems.map((item, at) => {
        const allowed = [...before, ...own];
        if (item.kind === 'codon') {
          const codon = codonOf(item.codon, {
            contextLoop: false,
            loopSize: 1,
            allowed,
            ...(tracked ? { tracked } : {}),
          });
          own.push(codon.id as string);
          return codon;
        }
        const terminate: TerminateOn =
          at === 0 && item.terminateOn.type === 'contextExceeded'
            ? { type: 'iterationLimit', limit: 2 }
            : item.terminateOn;
        const loop = loopOf({ ...item, terminateOn: terminate }, `loop${position}b${b}i${at}`, {
          allowed,
          ...(tracked ? { tracked } : {}),
        });
        own.push(...loop.codons.map((codon) => codon.id as string));
        return loop;
      });
      return { id: `par${position}b${b}`, items };
    });
    const resolver = {
      id: `r${position}`,
      name: `r${position}`,
      model: MODEL,
      continuationMode: 'fresh',
      promptText: 'Resolve the conflicts.',
      onFailure: shape.resolver.onFailure,
      ...(shape.resolver.onFailure === 'retry'
        ? { retryConfig: { maxAttempts: shape.resolver.maxAttempts, delayMs: 0 } }
        : {}),
    };
    previous = { extends: false, contextLoop: false, boundary: true };
    return {
      type: 'parallel',
      id,
      name: id,
      branches,
      ...(shape.maxConcurrency !== null ? { maxConcurrency: shape.maxConcurrency } : {}),
      merge: { onConflict: shape.onConflict === 'resolver' ? { resolver } : shape.onConflict },
      ...when,
    };
  };
  const all: (ItemShape | BlockShape)[] = [...items];
  if (block) all.splice(block.at % (items.length + 1), 0, block);
  const hank = all.map((item, position) => {
    if (!('kind' in item)) return blockOf(item, position);
    if (item.kind === 'codon') return codonOf(item.codon, { contextLoop: false, loopSize: 1 });
    return loopOf(item, `loop${position}`, item.budget ? { budget: item.budget } : {});
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
const outcomeTable = (config: HankConfig): fc.Arbitrary<OutcomeTable> => {
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
 * With `maxConcurrency: 1` the branches run one after another and every budget stays, except
 * around a block with a resolver (see below).
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
      // A resolver runs even when the hank's budget is spent (the runtime does not gate it; the
      // skipped case in semantics.found.int.test.ts): no hank budget around a block with one.
      const noHankBudget =
        block !== null && (block.maxConcurrency !== 1 || block.onConflict === 'resolver');
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

function withoutBlockBudgets(block: BlockShape): BlockShape {
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

function withoutBudgets(item: ItemShape): ItemShape {
  if (item.kind === 'codon') return { kind: 'codon', codon: { ...item.codon, budget: null } };
  return {
    ...item,
    budget: null,
    codons: item.codons.map((codon) => ({ ...codon, budget: null })),
  };
}

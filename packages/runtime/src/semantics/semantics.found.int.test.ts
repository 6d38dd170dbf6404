import { readdirSync, readFileSync } from 'node:fs';
import { validateHank } from '@hankweave/hank';
import type { HankConfig } from '@hankweave/types';
import { describe, it } from 'vitest';
import type { SemanticsCase } from '../testing/semantics/play-case.js';
import { checkAgainstInterpreter } from './check-against-interpreter.js';

// What long runs of the semantics property found (RELIABILITY.md), kept as fixed cases so that
// each stays fixed: hand-made cases of the same shape here, and the shrunk counterexamples as
// fast-check printed them in found/ (`{found, what, case}`; drop the printed `config`, which is
// derived, and `__proto__:null`).

const MODEL = 'claude-sonnet-4-5';
const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: MODEL,
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});
const table = (outcomes: SemanticsCase['outcomes']['outcomes'], maxSessions = 1) => ({
  outcomes,
  fallbackCost: 0.006,
  contextLoops: { codonIds: [], overflowFrom: 3 },
  maxSessions,
});

function found(semantics: SemanticsCase) {
  const result = validateHank(semantics.hank);
  if (!result.valid) throw new Error(`invalid case: ${JSON.stringify(result.errors)}`);
  return () => checkAgainstInterpreter({ ...semantics, config: result.config as HankConfig });
}

const FOUND_DIR = new URL('./found/', import.meta.url);
const counterexamples = readdirSync(FOUND_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => {
    const {
      found: where,
      what,
      case: semantics,
    } = JSON.parse(readFileSync(new URL(name, FOUND_DIR), 'utf8')) as {
      found: string;
      what: string;
      case: SemanticsCase;
    };
    return { name: `${where}: ${what}`, semantics };
  });

describe('counterexamples the long run found', () => {
  it.each(counterexamples)('$name', ({ semantics }) => found(semantics)(), 60_000);
});

describe('cases the long run found', () => {
  it(
    'seed 20261130: a rollback that cuts off the newest vote of an iteration lets the earlier one count',
    found({
      // Both codons of the plateau loop's first iteration vote stop; the rollback to c0 cuts c1's
      // vote off. c1 runs again and says nothing: c0's vote still decides, and the loop ends.
      hank: {
        meta: { name: 'found', version: '1.0.0' },
        hank: [
          {
            type: 'loop',
            id: 'p',
            name: 'p',
            terminateOn: { type: 'plateau', consensus: 1, minIterations: 1, maxIterations: 3 },
            codons: [codon('c0'), codon('c1')],
          },
        ],
      },
      outcomes: table({ 'c0#0': [{ vote: 'stop' }], 'c1#0': [{ vote: 'stop' }] }),
      steps: [{ kind: 'rollback', target: 0 }],
    }),
    60_000,
  );

  it(
    'seed 20261130: a hank budget spent up to float noise stops the hank',
    found({
      // proportional-strict over $0.027 gives each codon $0.009; c0 counts 0.009, c1 spent
      // 0.006 × 3 = 0.018000000000000002: what is left for c2 is -3.5e-18 or +3.5e-18 depending
      // on how the costs were rounded, and either way nothing.
      hank: {
        meta: { name: 'found', version: '1.0.0' },
        overrides: {
          budget: { maxDollars: 0.027, allocation: 'proportional-strict', onExceeded: 'complete' },
        },
        hank: [
          codon('c0', {
            onFailure: 'ignore',
            budget: { maxDollars: 0.003, onExceeded: 'complete' },
          }),
          codon('c1', {
            continuationMode: 'continue-previous',
            onFailure: 'abort',
            budget: { maxDollars: 0.033, onExceeded: 'complete' },
          }),
          codon('c2', {
            continuationMode: 'continue-previous',
            onFailure: 'abort',
            exhaustWithPrompt: 'Go on.',
            maxExtensions: 2,
          }),
        ],
      },
      outcomes: table(
        {
          c0: [],
          c1: [
            {
              sessions: [
                { end: 'ok', cost: 0.006 * 3 },
                { end: 'retriable-error', cost: 0.006 },
              ],
            },
          ],
          c2: [],
        },
        3,
      ),
      steps: [],
    }),
    60_000,
  );
});

describe('parallel blocks (issue 36): cases the property found', () => {
  // Found by the semantics property with parallel blocks (seed 1, every case with a block,
  // shrunk by hand). The execution thread was a prefix of the records in the order they started,
  // so a rollback to c0 (branch b0) cut off c1 and also c2, which the sibling branch b1 finished
  // after c0 started; the resume ran c1 and c2 again, then merged. The interpreter (interpret.ts,
  // "Resume and rollback in a block") keeps what the sibling branches did: only c1 runs again.
  // Fixed in @hankweave/state's thread (`siblingRecords`): a continuation after a branch codon
  // keeps the sibling branches' later records of its block.
  it('a rollback to a branch codon keeps what the sibling branches did', async () => {
    const semantics = {
      hank: {
        meta: { name: 'semantics', version: '1.0.0' },
        hank: [
          {
            type: 'parallel',
            id: 'par0',
            name: 'par0',
            maxConcurrency: 1,
            branches: [
              { id: 'par0b0', items: [codon('c0'), codon('c1')] },
              { id: 'par0b1', items: [codon('c2')] },
            ],
            merge: { onConflict: 'fail' },
          },
          codon('c3'),
        ],
      },
      outcomes: table({}),
      steps: [{ kind: 'rollback' as const, target: 0 }],
    };
    const result = validateHank(semantics.hank);
    await checkAgainstInterpreter({ ...semantics, config: result.config as HankConfig });
  }, 60_000);

  // Found by the semantics property with parallel blocks and merge conflicts (seed 21, every case
  // with a block, shrunk): three branches each write shared.txt, one after another
  // (maxConcurrency 1), under --max-cost 3.5 units; c2's session passes the ceiling, so the hank's
  // budget is spent when the merge conflicts. The interpreter's resolver has a budget gate like
  // any block codon: the run stops (budget-exceeded) and the merge is a conflict, merged again on
  // a resume. The runtime ran the resolver without the gate (par0.resolve spent though nothing
  // was left); mergeBlock now gates it and records the merge failed.
  it('a resolver does not run when the hank budget is spent', async () => {
    const shared = { checkpointedFiles: ['shared.txt'], onFailure: 'abort' };
    const extending = { ...shared, exhaustWithPrompt: 'Go on.', maxExtensions: 1 };
    const semantics = {
      hank: {
        meta: { name: 'semantics', version: '1.0.0' },
        hank: [
          {
            type: 'parallel',
            id: 'par0',
            name: 'par0',
            maxConcurrency: 1,
            branches: [
              { id: 'par0b0', items: [codon('c0', shared)] },
              { id: 'par0b1', items: [codon('c1', extending)] },
              { id: 'par0b2', items: [codon('c2', extending)] },
            ],
            merge: { onConflict: { resolver: codon('r0', { onFailure: 'abort' }) } },
          },
          codon('c3', { onFailure: 'abort' }),
        ],
      },
      outcomes: {
        ...table({}, 2),
        writes: { c0: 'shared.txt', c1: 'shared.txt', c2: 'shared.txt' },
      },
      steps: [],
      maxCost: 0.021,
    };
    const result = validateHank(semantics.hank);
    await checkAgainstInterpreter({ ...semantics, config: result.config as HankConfig });
  }, 60_000);
});

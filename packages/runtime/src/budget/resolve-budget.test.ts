import { type HankConfig, hankConfigSchema } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { buildInitialPlan, loopCodonId } from '../plan/planner.js';
import {
  allocations,
  dollarLimit,
  hankCeiling,
  resolveCodonLimits,
  type SpentRow,
} from './resolve-budget.js';

const codon = (id: string, budget?: Record<string, unknown>) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'x',
  ...(budget ? { budget } : {}),
});
const hank = (items: unknown[], budget?: Record<string, unknown>): HankConfig =>
  hankConfigSchema.parse({
    meta: { name: 'b', version: '1.0.0' },
    ...(budget ? { overrides: { budget } } : {}),
    hank: items,
  });
const spent = (codonId: string, dollars: number, seconds = 0, loopId?: string): SpentRow => ({
  codonId,
  baseId: codonId.split('#')[0] ?? codonId,
  dollars,
  seconds,
  ...(loopId ? { loopId } : {}),
});
const limitsOf = (
  config: HankConfig,
  codonId: string,
  rows: SpentRow[],
  ceiling = hankCeiling(config),
) => {
  const entry = buildInitialPlan(config).find((candidate) => candidate.codonId === codonId);
  if (!entry) throw new Error(`no ${codonId}`);
  return resolveCodonLimits({ config, entry, ceiling, spent: rows });
};

describe('hankCeiling', () => {
  const config = hank([codon('a')], { maxDollars: 5, maxTimeSeconds: 600 });
  it('is the hank budget alone', () => {
    expect(hankCeiling(config)).toEqual({ maxDollars: 5, maxTimeSeconds: 600 });
  });
  it('combines the runtime budget and the hank budget as their minimum, per currency', () => {
    expect(hankCeiling(config, { runtime: { maxDollars: 2, maxTimeSeconds: 900 } })).toEqual({
      maxDollars: 2,
      maxTimeSeconds: 600,
    });
    expect(hankCeiling(hank([codon('a')]), { runtime: { maxDollars: 2 } })).toEqual({
      maxDollars: 2,
    });
  });
  it('lets --max-cost and --max-time replace both, even upwards', () => {
    expect(hankCeiling(config, { runtime: { maxDollars: 2 }, maxCost: 7, maxTime: 30 })).toEqual({
      maxDollars: 7,
      maxTimeSeconds: 30,
    });
  });
  it('is empty without any budget', () => {
    expect(hankCeiling(hank([codon('a')]))).toEqual({});
  });
});

describe('allocation', () => {
  it('proportional: share × max, the unallocated pool split evenly among the rest', () => {
    const shares = allocations(10, ['a', 'b', 'c', 'd'], { a: 0.5, b: 0.25 });
    expect(Object.fromEntries(shares)).toEqual({ a: 5, b: 2.5, c: 1.25, d: 1.25 });
  });

  it('shared: whatever remains, first past the post', () => {
    const container = {
      maxDollars: 10,
      allocation: 'shared' as const,
      shares: {},
      children: ['a', 'b'],
    };
    expect(dollarLimit(container, 'b', new Map([['a', 7.5]]))).toBe(2.5);
    expect(dollarLimit(container, 'b', new Map([['a', 12]]))).toBe(-2);
  });

  it('proportional: the allocation, bounded by what remains (others may overspend theirs)', () => {
    const container = {
      maxDollars: 10,
      allocation: 'proportional' as const,
      shares: { a: 0.5, b: 0.3 },
      children: ['a', 'b', 'c'],
    };
    // b's 3 is within the 10 − 2 remaining.
    expect(dollarLimit(container, 'b', new Map([['a', 2]]))).toBe(3);
    // a overspent to 9: b is bounded by the 1 that remains.
    expect(dollarLimit(container, 'b', new Map([['a', 9]]))).toBe(1);
    // c has the unallocated 20%: 2.
    expect(
      dollarLimit(
        container,
        'c',
        new Map([
          ['a', 2],
          ['b', 1],
        ]),
      ),
    ).toBeCloseTo(2, 12);
    // A child that spent part of its allocation already (a retry) gets the rest of it.
    expect(dollarLimit(container, 'a', new Map([['a', 4]]))).toBe(1);
  });

  it('a budget spent up to float noise is exhausted, whichever way the costs were rounded', () => {
    const config = hank([codon('a'), codon('b'), codon('c')], {
      maxDollars: 0.027,
      allocation: 'proportional-strict',
    });
    for (const bCost of [0.018, 0.006 * 3]) {
      const limits = limitsOf(config, 'c', [spent('a', 0.006), spent('b', bCost)]);
      expect(limits.exhausted).toMatchObject({ scope: 'hank', currency: 'cost' });
    }
  });

  it('proportional-strict: unspent share evaporates (each earlier child counts max(share, actual))', () => {
    const container = {
      maxDollars: 10,
      allocation: 'proportional-strict' as const,
      shares: { a: 0.5, b: 0.3 },
      children: ['a', 'b', 'c'],
    };
    // a spent only 2 of its 5: strict still counts 5, so c (share 2) keeps exactly 2...
    expect(
      dollarLimit(
        container,
        'c',
        new Map([
          ['a', 2],
          ['b', 1],
        ]),
      ),
    ).toBeCloseTo(2, 12);
    // ...whereas with a overspending to 6.5, c is left 10 − 6.5 − 3 = 0.5.
    expect(
      dollarLimit(
        container,
        'c',
        new Map([
          ['a', 6.5],
          ['b', 1],
        ]),
      ),
    ).toBeCloseTo(0.5, 12);
    // proportional (not strict) would have given b 3 after a spent 2: strict also 3 here.
    expect(dollarLimit(container, 'b', new Map([['a', 2]]))).toBe(3);
    // and after a spent 8, strict leaves b 10 − 8 = 2.
    expect(dollarLimit(container, 'b', new Map([['a', 8]]))).toBe(2);
  });
});

describe('resolveCodonLimits', () => {
  it('a codon cap is a ceiling under a shared hank budget, and later codons get what remains', () => {
    const config = hank([codon('a', { maxDollars: 0.5 }), codon('b')], { maxDollars: 2 });
    expect(limitsOf(config, 'a', [])).toEqual({ maxDollars: 0.5, onExceeded: 'complete' });
    expect(limitsOf(config, 'b', [spent('a', 0.75)])).toEqual({
      maxDollars: 1.25,
      onExceeded: 'complete',
    });
  });

  it('a spent shared budget exhausts the next codon, with the container onExceeded', () => {
    const config = hank([codon('a'), codon('b')], { maxDollars: 0.001, onExceeded: 'fail' });
    expect(limitsOf(config, 'b', [spent('a', 0.027)])).toEqual({
      maxDollars: 0,
      onExceeded: 'fail',
      exhausted: {
        scope: 'hank',
        currency: 'cost',
        limit: 0.001,
        used: 0.027,
        onExceeded: 'fail',
      },
    });
  });

  it('time: min(codon cap, what remains of the hank time)', () => {
    const config = hank([codon('a'), codon('b', { maxTimeSeconds: 100 })], {
      maxTimeSeconds: 120,
    });
    expect(limitsOf(config, 'b', [spent('a', 0, 50)]).maxTimeSeconds).toBe(70);
    expect(limitsOf(config, 'b', [spent('a', 0, 5)]).maxTimeSeconds).toBe(100);
    expect(limitsOf(config, 'b', [spent('a', 0, 130)]).exhausted).toMatchObject({
      currency: 'duration',
      limit: 120,
      used: 130,
    });
  });

  it('onExceeded resolves codon → loop → hank → complete', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'l',
      terminateOn: { type: 'iterationLimit', limit: 3 },
      budget: { maxDollars: 1, onExceeded: 'fail' },
      codons: [codon('x'), codon('y', { onExceeded: 'complete' })],
    };
    const config = hank([codon('a'), loop], { maxDollars: 5, onExceeded: 'complete' });
    expect(limitsOf(config, 'a', []).onExceeded).toBe('complete');
    expect(limitsOf(config, loopCodonId('x', 0), []).onExceeded).toBe('fail');
    expect(limitsOf(config, loopCodonId('y', 0), []).onExceeded).toBe('complete');
    expect(limitsOf(hank([codon('a')]), 'a', []).onExceeded).toBe('complete');
  });

  it('a loop budget covers the whole loop: iterations spend it, and the hank bounds it too', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'l',
      terminateOn: { type: 'iterationLimit', limit: 50 },
      budget: { maxDollars: 0.01 },
      codons: [codon('x')],
    };
    const config = hank([codon('a'), loop], { maxDollars: 1 });
    const rows = [spent('a', 0.5), spent('x#0', 0.004, 0, 'l'), spent('x#1', 0.004, 0, 'l')];
    expect(limitsOf(config, 'x#0', rows).maxDollars).toBeCloseTo(0.002, 12);
    const spentLoop = [...rows, spent('x#2', 0.003, 0, 'l')];
    expect(limitsOf(config, 'x#0', spentLoop).exhausted).toMatchObject({
      scope: 'loop',
      id: 'l',
      currency: 'cost',
      limit: 0.01,
    });
  });

  it('proportional hank shares go to top-level items, a loop being one child', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'l',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      codons: [codon('x')],
    };
    const config = hank([codon('a'), loop, codon('b')], {
      maxDollars: 10,
      allocation: 'proportional',
      shares: { a: 0.2, l: 0.5 },
    });
    expect(limitsOf(config, 'a', []).maxDollars).toBe(2);
    expect(limitsOf(config, 'x#0', [spent('a', 1)]).maxDollars).toBe(5);
    expect(limitsOf(config, 'b', [spent('a', 1), spent('x#0', 6, 0, 'l')]).maxDollars).toBeCloseTo(
      3,
      12,
    );
  });

  it('passes the token caps through', () => {
    const config = hank([codon('a', { maxOutputTokens: 5, maxContextTokens: 7 })]);
    expect(limitsOf(config, 'a', [])).toEqual({
      maxOutputTokens: 5,
      maxContextTokens: 7,
      onExceeded: 'complete',
    });
  });
});

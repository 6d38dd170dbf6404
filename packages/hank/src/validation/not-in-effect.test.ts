import { describe, expect, it } from 'vitest';
import { validateHank } from '../index.js';

const codon = (extra: Record<string, unknown> = {}) => ({
  id: 'a',
  name: 'A',
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Go.',
  ...extra,
});

const notInEffect = (hank: unknown) =>
  validateHank(hank)
    .warnings.filter((warning) => warning.code === 'not_in_effect')
    .map((warning) => warning.path);

// Accepted fields that this version does not carry out yet are warned about, never silently
// ignored. A line goes when its feature takes effect (with its case in not-in-effect.ts).
const USES: [string, unknown, string[]][] = [
  [
    'sentinel health-check settings (enablePersistence is in effect)',
    {
      overrides: {
        sentinel: {
          waitForAllHealthChecks: true,
          healthCheckGracePeriodMs: 500,
          enablePersistence: false,
        },
      },
      hank: [codon()],
    },
    ['overrides.sentinel.healthCheckGracePeriodMs', 'overrides.sentinel.waitForAllHealthChecks'],
  ],
  [
    "a parallel block's own budget, a non-shared allocation around it (the runtime refuses them)",
    {
      overrides: { budget: { maxDollars: 5, allocation: 'proportional' } },
      hank: [
        codon(),
        {
          type: 'parallel',
          id: 'p',
          name: 'P',
          budget: { maxDollars: 1 },
          branches: [
            { id: 'x', items: [codon({ id: 'x1' })] },
            { id: 'y', items: [codon({ id: 'y1' })] },
          ],
        },
      ],
    },
    ['hank[1].budget', 'overrides.budget.allocation'],
  ],
];

describe('features accepted but not in effect yet', () => {
  it.each(USES)('warns about %s at its path', (_name, hank, paths) => {
    expect(validateHank(hank).valid).toBe(true);
    expect(notInEffect(hank).sort()).toEqual([...paths].sort());
  });

  it('warns about nothing for budgets of a codon, the hank and a loop (in effect)', () => {
    const hank = {
      overrides: { budget: { maxDollars: 5 } },
      hank: [
        codon({ budget: { maxDollars: 1 } }),
        {
          type: 'loop',
          id: 'l',
          name: 'L',
          terminateOn: { type: 'iterationLimit', limit: 2 },
          budget: { maxDollars: 1 },
          codons: [codon({ id: 'b', name: 'B', budget: { maxTimeSeconds: 5 } })],
        },
      ],
    };
    expect(validateHank(hank).valid).toBe(true);
    expect(notInEffect(hank)).toEqual([]);
  });

  it('warns about nothing for a parallel block that runs (branches, loops, a resolver, sentinels)', () => {
    const watcher = {
      sentinelConfig: {
        id: 'watcher',
        name: 'Watcher',
        model: 'anthropic/claude-haiku-4-5',
        trigger: { type: 'event', on: ['assistant.action'] },
        execution: { strategy: 'immediate' },
        userPromptText: 'Watch <%= it.events.length %> events.',
      },
    };
    const hank = {
      hank: [
        codon(),
        {
          type: 'parallel',
          id: 'p',
          name: 'P',
          maxConcurrency: 1,
          merge: { onConflict: { resolver: codon({ id: 'fix', name: 'Fix' }) } },
          branches: [
            { id: 'x', items: [codon({ id: 'x1', sentinels: [watcher] })] },
            {
              id: 'y',
              items: [
                {
                  type: 'loop',
                  id: 'l',
                  name: 'L',
                  terminateOn: { type: 'iterationLimit', limit: 2 },
                  codons: [codon({ id: 'y1' })],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(validateHank(hank).valid).toBe(true);
    expect(notInEffect(hank)).toEqual([]);
  });

  it('warns about nothing in a hank that uses only what takes effect', () => {
    expect(
      notInEffect({ hank: [codon({ rigSetup: [{ type: 'command', command: { run: 'ls' } }] })] }),
    ).toEqual([]);
  });

  it('warns about nothing for archiveOnSuccess of a codon, a rig copy and a loop (in effect)', () => {
    const hank = {
      hank: [
        codon({
          archiveOnSuccess: ['tmp/**'],
          rigSetup: [{ type: 'copy', copy: { from: 'x', to: 'x' }, archiveOnSuccess: true }],
        }),
        {
          type: 'loop',
          id: 'l',
          name: 'L',
          terminateOn: { type: 'iterationLimit', limit: 2 },
          archiveOnSuccess: ['draft/**'],
          codons: [codon({ id: 'b', name: 'B' })],
        },
      ],
    };
    expect(validateHank(hank).valid).toBe(true);
    expect(notInEffect(hank)).toEqual([]);
  });
});

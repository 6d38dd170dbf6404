import { itemCodons } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { loadHank } from './open-execution.js';

const codon = (id: string, model: string) => ({
  id,
  name: id,
  model,
  continuationMode: 'fresh',
  promptText: 'Go.',
});

const hank = {
  overrides: { model: 'haiku' },
  hank: [
    codon('a', 'sonnet'),
    {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 1 },
      codons: [codon('b', 'opus')],
    },
  ],
};

const models = (loaded: ReturnType<typeof loadHank>) =>
  loaded.config.hank.flatMap((item) => itemCodons(item).map((codon) => codon.model));

describe('loadHank()', () => {
  it("applies the hank's overrides.model to every codon, loops included", () => {
    expect(models(loadHank({ hank, hankDir: '/tmp' }))).toEqual(['haiku', 'haiku']);
  });

  it('lets --model win over overrides.model (hank overrides < CLI)', () => {
    expect(models(loadHank({ hank, hankDir: '/tmp', model: 'opus' }))).toEqual(['opus', 'opus']);
  });

  it("keeps each codon's own model when nothing overrides it", () => {
    const { overrides: _, ...plain } = hank;
    expect(models(loadHank({ hank: plain, hankDir: '/tmp' }))).toEqual(['sonnet', 'opus']);
  });

  it('loads a parallel block (sentinels on its codons too), --model reaching its codons, and refuses what it cannot run yet', () => {
    const block = (extra: Record<string, unknown> = {}) => ({
      type: 'parallel',
      id: 'build',
      name: 'build',
      branches: [
        { id: 'api', items: [codon('api-code', 'sonnet')] },
        { id: 'ui', items: [codon('ui-code', 'opus')] },
      ],
      ...extra,
    });
    const hankWith = (item: unknown, overrides?: unknown) => ({
      meta: { name: 'p', version: '1.0.0' },
      hank: [codon('plan', 'sonnet'), item],
      ...(overrides ? { overrides } : {}),
    });
    const loaded = loadHank({ hank: hankWith(block()), hankDir: '/tmp', model: 'haiku' });
    expect(models(loaded)).toEqual(['haiku', 'haiku', 'haiku']);
    // Sentinels on a block's codons run, each branch with its own host (issue 36).
    const watched = block({
      branches: [
        {
          id: 'api',
          items: [
            {
              ...codon('api-code', 'sonnet'),
              sentinels: [
                {
                  sentinelConfig: {
                    id: 'watch',
                    name: 'Watch',
                    model: 'anthropic/claude-haiku-4-5',
                    trigger: { type: 'event', on: ['assistant.action'] },
                    execution: { strategy: 'immediate' },
                    userPromptText: 'Watch.',
                  },
                },
              ],
            },
          ],
        },
        { id: 'ui', items: [codon('ui-code', 'opus')] },
      ],
    });
    expect(() => loadHank({ hank: hankWith(watched), hankDir: '/tmp' })).not.toThrow();
    const refusals: [unknown, unknown, string][] = [
      [block({ budget: { maxDollars: 1 } }), undefined, 'parallel-budget'],
      [block(), { budget: { maxDollars: 1, allocation: 'proportional' } }, 'parallel-allocation'],
    ];
    for (const [item, overrides, feature] of refusals) {
      expect(() => loadHank({ hank: hankWith(item, overrides), hankDir: '/tmp' })).toThrow(
        expect.objectContaining({
          code: 'RUNTIME_UNSUPPORTED_FEATURE',
          details: expect.objectContaining({ feature, items: ['build'] }),
        }),
      );
    }
  });
});

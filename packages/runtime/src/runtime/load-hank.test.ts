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
  loaded.config.hank.flatMap((item) =>
    item.type === 'loop' ? item.codons.map((inner) => inner.model) : [item.model],
  );

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
});

import { describe, expect, it } from 'vitest';
import { withModelOverride } from './model-override.js';
import { validateHank } from './validate-hank.js';

const codon = (id: string) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
});

describe('withModelOverride', () => {
  it('reaches top-level codons, loop codons, branch codons and the resolver, on a copy', () => {
    const raw = {
      hank: [
        codon('first'),
        {
          type: 'parallel',
          id: 'b',
          name: 'b',
          merge: { onConflict: { resolver: codon('fix') } },
          branches: [
            { id: 'x', items: [codon('x1')] },
            {
              id: 'y',
              items: [
                {
                  type: 'loop',
                  id: 'l',
                  name: 'l',
                  terminateOn: { type: 'iterationLimit', limit: 1 },
                  codons: [codon('l1')],
                },
              ],
            },
          ],
        },
      ],
    };
    const before = JSON.stringify(raw);
    const overridden = withModelOverride(raw, 'opus');
    expect(validateHank(overridden).errors).toEqual([]);
    expect(JSON.stringify(overridden).match(/"model":"[^"]+"/g)).toEqual(
      Array.from({ length: 4 }, () => '"model":"opus"'),
    );
    expect(JSON.stringify(raw)).toBe(before);
  });

  it('leaves what is not a hank, and items that are not objects, as they are', () => {
    expect(withModelOverride(null, 'opus')).toBeNull();
    expect(withModelOverride({ hank: 'x' }, 'opus')).toEqual({ hank: 'x' });
    expect(withModelOverride({ hank: [null, 3, { type: 'loop' }] }, 'opus')).toEqual({
      hank: [null, 3, { type: 'loop' }],
    });
  });
});

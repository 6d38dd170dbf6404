import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hankModels } from './doctor-models.js';

const dir = mkdtempSync(join(tmpdir(), 'doctor-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'sentinels'));
writeFileSync(
  join(dir, 'sentinels', 'watch.json'),
  JSON.stringify({ id: 'watch', model: 'gpt-5.2' }),
);

const hank = {
  hank: [
    {
      id: 'explore',
      model: 'sonnet',
      sentinels: [
        { sentinelConfig: 'sentinels/watch.json' },
        { sentinelConfig: { id: 'inline', model: 'haiku' } },
        { sentinelConfig: 'sentinels/missing.json' },
      ],
    },
    { type: 'loop', id: 'polish', codons: [{ id: 'pass', model: 'sonnet' }, { id: 'check' }] },
  ],
};

describe('hankModels()', () => {
  it('lists codon, loop codon and sentinel models once each, with who uses them', () => {
    expect(hankModels(hank, dir)).toEqual([
      { model: 'sonnet', usedBy: ['codon explore', 'codon pass'] },
      { model: 'gpt-5.2', usedBy: ['sentinel watch (codon explore)'] },
      { model: 'haiku', usedBy: ['sentinel inline (codon explore)'] },
    ]);
  });

  it('puts the runtime config model in place of every codon model, not of sentinels', () => {
    expect(hankModels(hank, dir, 'opus').map((entry) => entry.model)).toEqual([
      'opus',
      'gpt-5.2',
      'haiku',
    ]);
  });

  it('checks a model apart for codons with their own env, which it carries', () => {
    const withEnv = {
      hank: [
        { id: 'a', model: 'gpt-5.2' },
        { id: 'b', model: 'gpt-5.2', env: { OPENAI_API_KEY: 'sk-b' } },
        { id: 'c', model: 'gpt-5.2', env: { OPENAI_API_KEY: 'sk-b' } },
      ],
    };
    expect(hankModels(withEnv, dir)).toEqual([
      { model: 'gpt-5.2', usedBy: ['codon a'] },
      { model: 'gpt-5.2', env: { OPENAI_API_KEY: 'sk-b' }, usedBy: ['codon b', 'codon c'] },
    ]);
  });

  it('reads a hank that is not valid loosely', () => {
    expect(hankModels({ hank: 'nope' }, dir)).toEqual([]);
    expect(hankModels({ hank: [{ id: 'x', model: 'sonet' }] }, dir)).toEqual([
      { model: 'sonet', usedBy: ['codon x'] },
    ]);
  });
});

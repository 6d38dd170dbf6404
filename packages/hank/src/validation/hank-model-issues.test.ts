import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { validateHank } from './validate-hank.js';

// The model checks of validateHank; checkModelId itself is tested in @hankweave/types.

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Hello',
  ...extra,
});
const hank = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  meta: { name: 'models', version: '1.0.0' },
  hank: items,
  ...extra,
});
const sentinel = (model: string) => ({
  id: 'watch',
  name: 'Watch',
  model,
  trigger: { type: 'event', on: ['assistant.action'] },
  execution: { strategy: 'immediate' },
  userPromptText: 'Say something',
});

describe('validateHank() model ids', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('reports an unknown codon model as an error with a "did you mean"', () => {
    const result = validateHank(
      hank([codon('a', { model: 'sonet' }), codon('b', { model: 'claude-sonnet-9-9' })]),
    );
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'hank[0].model', code: 'unknown_model' }),
      expect.objectContaining({ path: 'hank[1].model', code: 'unknown_model' }),
    ]);
    expect(result.errors[0]?.message).toContain('Did you mean "sonnet"?');
    expect(result.errors[1]?.message).toContain('Did you mean "sonnet"?');
  });

  it("accepts every provider of Pi's registry with Pi installed, and names the field and the closest ids of a misspelt one", () => {
    const both = { harnesses: ['claude-code', 'pi'] as const };
    const models = [
      'pi/openai/gpt-5.4',
      'google/gemini-2.5-flash',
      'pi/mistral/devstral-medium-latest',
      'xai/grok-code-fast-1',
      'deepseek-v4-flash',
      'pi/openrouter/moonshotai/kimi-k2',
    ];
    const valid = validateHank(
      hank(models.map((model, index) => codon(`c${index}`, { model }))),
      both,
    );
    expect(valid.errors).toEqual([]);
    const typo = validateHank(
      hank([codon('a'), codon('b', { model: 'pi/googel/gemini-2.5-flsh' })]),
      both,
    );
    expect(typo.errors).toEqual([
      expect.objectContaining({ path: 'hank[1].model', code: 'unknown_model' }),
    ]);
    expect(typo.errors[0]?.message).toContain('Did you mean "pi/google/gemini-2.5-flash"?');
  });

  it("accepts a model newer than Pi's registry at a provider it knows, with a warning", () => {
    // Pi asks the provider for an id its registry lacks ("custom model id"), so these run.
    const both = { harnesses: ['claude-code', 'pi'] as const };
    const result = validateHank(
      hank([
        codon('a', { model: 'openai/gpt-5.6' }),
        codon('b', { model: 'pi/zai/glm-4.6' }),
        codon('c', { model: 'pi/nosuchprovider/model-1' }),
      ]),
      both,
    );
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'hank[2].model', code: 'unknown_model' }),
    ]);
    const warnings = result.warnings.filter((issue) => issue.code === 'uncatalogued_model');
    expect(warnings.map((issue) => issue.path)).toEqual(['hank[0].model', 'hank[1].model']);
    expect(warnings[0]?.message).toContain('Pi asks openai for "gpt-5.6" as written');
    expect(warnings[1]?.message).toContain('"pi/zai/glm-4.7"');
  });

  it('reports models of other providers as unserved_provider, in loops and overrides too', () => {
    const result = validateHank(
      hank(
        [
          codon('a', { model: 'gpt-5.2' }),
          {
            type: 'loop',
            id: 'l',
            name: 'L',
            terminateOn: { type: 'iterationLimit', limit: 2 },
            codons: [codon('b', { model: 'gemini-3-pro-preview' })],
          },
        ],
        { overrides: { model: 'openai/gpt-5' } },
      ),
    );
    expect(result.errors.map((issue) => `${issue.code} @ ${issue.path}`)).toEqual([
      'unserved_provider @ overrides.model',
      'unserved_provider @ hank[0].model',
      'unserved_provider @ hank[1].codons[0].model',
    ]);
  });

  it('accepts codon models of other providers when Pi is installed', () => {
    const result = validateHank(
      hank([
        codon('a', { model: 'gpt-5.2' }),
        codon('b', { model: 'pi/openai/gpt-5.2-high' }),
        codon('c', { model: 'gemini-3-pro-preview-xhigh' }),
        codon('d', {
          model: 'gemini-3-pro-previw',
          sentinels: [{ sentinelConfig: sentinel('gpt-5.2') }],
        }),
      ]),
      { harnesses: ['claude-code', 'pi'] },
    );
    expect(result.errors.map((issue) => `${issue.code} @ ${issue.path}`)).toEqual([
      'unknown_model @ hank[3].model',
    ]);
    expect(result.errors[0]?.message).toContain('Did you mean "gemini-3-pro-preview"?');
  });

  it('accepts sentinel models of any provider the catalog knows, without Pi', () => {
    const sentinels = ['gpt-5.2', 'google/gemini-3-pro-preview', 'pi/openai/gpt-5.2-high'].map(
      (model) => ({ sentinelConfig: { ...sentinel(model), id: model.replace(/\W/g, '-') } }),
    );
    const result = validateHank(hank([codon('a', { sentinels })]));
    expect(result.errors).toEqual([]);
  });

  it('checks inline sentinel models', () => {
    const result = validateHank(
      hank([codon('a', { sentinels: [{ sentinelConfig: sentinel('haiku-4-5-typo') }] })]),
    );
    expect(result.errors).toEqual([
      expect.objectContaining({
        path: 'hank[0].sentinels[0].sentinelConfig.model',
        code: 'unknown_model',
      }),
    ]);
  });

  it('checks sentinel files as an error even when the sentinel may fail to load', async () => {
    const dir = await makeTempDir('model-check-');
    cleanup = dir.cleanup;
    mkdirSync(join(dir.path, 'sentinels'));
    writeFileSync(join(dir.path, 'sentinels', 'w.json'), JSON.stringify(sentinel('gpt-5.3-typo')));
    const result = validateHank(
      hank([codon('a', { sentinels: [{ sentinelConfig: 'sentinels/w.json' }] })]),
      { hankDir: dir.path },
    );
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'sentinels/w.json: model', code: 'unknown_model' }),
    ]);
  });

  it('reports an id with whitespace once, as invalid_model', () => {
    const result = validateHank(hank([codon('a', { model: 'claude sonnet' })]));
    expect(result.errors.map((issue) => issue.code)).toEqual(['invalid_model']);
  });

  it('accepts every form the original runtime accepts', () => {
    const models = ['sonnet', 'anthropic/claude-haiku-4-5', 'claude-sonnet-4-20250514'];
    const result = validateHank(hank(models.map((model, index) => codon(`c${index}`, { model }))));
    expect(result.errors).toEqual([]);
  });
});

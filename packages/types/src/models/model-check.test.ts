import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { validateHank } from '../hank/validate-hank.js';
import { createModelCatalog, defaultModelCatalog } from './model-catalog.js';
import { MODEL_CATALOG } from './model-catalog-data.js';
import { checkModelId } from './model-check.js';

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

describe('checkModelId()', () => {
  it.each([
    'sonnet',
    'opus',
    'haiku',
    'anthropic/claude-haiku-4-5',
    'claude-sonnet-4-5',
    'claude-sonnet-4-20250514',
    'claude-3-5-haiku-20241022',
    'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'anthropic.claude-sonnet-4-5-20250929-v1:0',
    'claude-sonnet-4-5@20250929',
    'opus-xhigh',
    'claude-opus-4-5-high',
    ' Sonnet ',
  ])('accepts %s and routes it to anthropic', (id) => {
    const check = checkModelId(id);
    expect(check).toMatchObject({ ok: true, route: { provider: 'anthropic' } });
  });

  it.each([
    ['sonet', 'sonnet'],
    ['claude-sonnet-9-9', 'sonnet'],
    ['anthropic/claude-opus-9', 'opus'],
    ['hiaku', 'haiku'],
    ['claude-sonet-4-5', 'claude-sonnet-4-5'],
  ])('refuses %s as unknown_model and suggests %s', (id, suggestion) => {
    const check = checkModelId(id);
    expect(check).toMatchObject({ ok: false, code: 'unknown_model', suggestion });
    expect(check.ok === false && check.message).toContain(`Did you mean "${suggestion}"?`);
  });

  it('lists the aliases when nothing is close', () => {
    const check = checkModelId('totally-made-up-model');
    expect(check).toMatchObject({ ok: false, code: 'unknown_model' });
    expect(check).not.toHaveProperty('suggestion');
    expect(check.ok === false && check.message).toContain('"sonnet"');
  });

  it.each(['', '   ', 'claude sonnet'])('refuses %j as not a model id', (id) => {
    expect(checkModelId(id)).toMatchObject({ ok: false, code: 'unknown_model' });
  });

  it.each([
    'gpt-5.2',
    'gemini-3-pro-preview',
    'openai/gpt-5',
    'google/gemini-2.5-pro',
    'o3',
    'pi/anthropic/claude-sonnet-4-5',
    'opencode/openai/gpt-5',
  ])('refuses %s as unserved_provider without Pi, naming the Pi harness and its package', (id) => {
    const check = checkModelId(id);
    expect(check).toMatchObject({ ok: false, code: 'unserved_provider' });
    const message = check.ok ? '' : check.message;
    expect(message).toContain('Pi harness, which is not installed; install @hankweave/pi');
    expect(message).toContain('use an Anthropic model');
  });

  it("accepts other providers' models once the Pi harness is installed", () => {
    const both = ['claude-code', 'pi'] as const;
    expect(checkModelId('gpt-5.2', defaultModelCatalog, both)).toMatchObject({
      ok: true,
      route: { provider: 'openai', model: 'gpt-5.2' },
    });
    expect(checkModelId('pi/anthropic/sonnet', defaultModelCatalog, both).ok).toBe(true);
    expect(checkModelId('gemini-3-pro-preview-high', defaultModelCatalog, both).ok).toBe(true);
    // Still a typo, not a Pi model: no provider and no catalog row.
    expect(checkModelId('sonet', defaultModelCatalog, both)).toMatchObject({
      code: 'unknown_model',
    });
  });

  it('refuses Anthropic models when Claude Code is not installed', () => {
    const check = checkModelId('sonnet', defaultModelCatalog, ['pi']);
    expect(check).toMatchObject({ ok: false, code: 'unserved_provider' });
    expect(check.ok === false && check.message).toContain('install @hankweave/claude-code');
  });

  it('checks against the catalog it is given', () => {
    const small = createModelCatalog(MODEL_CATALOG.filter((entry) => entry.family === 'haiku'));
    expect(checkModelId('haiku', small).ok).toBe(true);
    expect(checkModelId('sonnet', small)).toMatchObject({ ok: false, code: 'unknown_model' });
    expect(checkModelId('sonnet', defaultModelCatalog).ok).toBe(true);
  });
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

  it('accepts codon models of other providers when Pi is installed, never for sentinels', () => {
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
      'unserved_provider @ hank[3].sentinels[0].sentinelConfig.model',
    ]);
    expect(result.errors[0]?.message).toContain('Did you mean "gemini-3-pro-preview"?');
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
    writeFileSync(join(dir.path, 'sentinels', 'w.json'), JSON.stringify(sentinel('gpt-5.2')));
    const result = validateHank(
      hank([codon('a', { sentinels: [{ sentinelConfig: 'sentinels/w.json' }] })]),
      { hankDir: dir.path },
    );
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'sentinels/w.json: model', code: 'unserved_provider' }),
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

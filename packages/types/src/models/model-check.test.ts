import { describe, expect, it } from 'vitest';
import { createModelCatalog, defaultModelCatalog } from './model-catalog.js';
import { MODEL_CATALOG } from './model-catalog-data.js';
import { checkModelId } from './model-check.js';

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

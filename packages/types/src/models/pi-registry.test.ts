import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPiRegistry, piRegistryRows } from '../../scripts/pi-registry-rows.mjs';
import { defaultModelCatalog as catalog, costOfUsage } from './model-catalog.js';
import { MODEL_CATALOG } from './model-catalog-data.js';
import { checkModelId } from './model-check.js';
import { PI_REGISTRY_ROWS, PI_REGISTRY_VERSION } from './pi-registry-data.js';
import { selectHarness } from './select-harness.js';

const BOTH = ['claude-code', 'pi'] as const;

describe('pi-registry-data.ts', () => {
  it('is current with the installed Pi registry (else run `pnpm --filter @hankweave/types catalog:refresh`)', async () => {
    const { version, models } = await loadPiRegistry();
    expect(PI_REGISTRY_VERSION).toBe(version);
    expect(PI_REGISTRY_ROWS).toEqual(piRegistryRows(models));
  });

  it('is read from the pi-ai that the Pi harness runs', () => {
    // @hankweave/pi depends on pi-coding-agent, which brings its pi-ai: the same version.
    const agent = realpathSync(
      fileURLToPath(
        new URL('../../../pi/node_modules/@mariozechner/pi-coding-agent', import.meta.url),
      ),
    );
    const piAi = JSON.parse(readFileSync(`${agent}/../pi-ai/package.json`, 'utf8')) as {
      version: string;
    };
    expect(PI_REGISTRY_VERSION).toBe(piAi.version);
  });

  it('holds the providers the issue names, sorted', () => {
    const providers = new Set(PI_REGISTRY_ROWS.map(([provider]) => provider));
    for (const provider of ['openai', 'google', 'anthropic', 'openrouter', 'zai', 'deepseek']) {
      expect(providers).toContain(provider);
    }
    const keys = PI_REGISTRY_ROWS.map(([provider, id]) => `${provider}\u0000${id}`);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('the catalog over Pi registry', () => {
  it('validates every model of every provider Pi knows as pi/<provider>/<model>, routed to it', () => {
    for (const [provider, id] of PI_REGISTRY_ROWS) {
      const check = checkModelId(`pi/${provider}/${id}`, catalog, BOTH);
      expect(check.ok, `pi/${provider}/${id}`).toBe(true);
      const selection = selectHarness(`pi/${provider}/${id}`);
      expect(selection).toMatchObject({ harness: 'pi', provider, forced: true });
      // Anthropic ids that a hand row covers keep their spelling (dated ids reach the API as they are).
      expect(selection.model).toBe(id);
    }
  });

  it("prices Pi's models at Pi's prices, and Pi's $0 rows as unpriced", () => {
    const usage = {
      inputTokens: 12_345,
      outputTokens: 678,
      cacheCreationTokens: 90,
      cacheReadTokens: 4_321,
    };
    for (const [provider, id, , , input, output, cacheRead, cacheWrite] of PI_REGISTRY_ROWS) {
      if (provider === 'anthropic') continue;
      const priced = catalog.priceUsage(`pi/${provider}/${id}`, usage);
      if (input + output + cacheRead + cacheWrite === 0) {
        expect(priced).toEqual({ cost: 0, known: false });
      } else {
        const cost = costOfUsage(usage, { input, output, cacheRead, cacheWrite });
        expect(priced, `${provider}/${id}`).toEqual({ cost, known: true });
      }
    }
  });

  it('keeps the hand-measured Claude rows over Pi’s anthropic rows, and Pi’s others', () => {
    // Pi lists claude-opus-4-6 with the 1M-token window; the catalog keeps the standard one.
    expect(catalog.resolve('claude-opus-4-6')).toMatchObject({
      contextWindow: 200_000,
      harness: 'claude-code',
    });
    expect(catalog.resolve('pi/anthropic/claude-opus-4-6')).toBe(
      catalog.resolve('claude-opus-4-6'),
    );
    // A Claude model only Pi lists is kept, with its family and version.
    expect(catalog.resolve('claude-3-sonnet-20240229')).toMatchObject({
      provider: 'anthropic',
      family: 'sonnet',
      version: '3.0',
      harness: 'claude-code',
    });
    expect(MODEL_CATALOG.filter((entry) => entry.provider === 'anthropic').length).toBe(21);
  });

  it.each([
    ['gpt-5.2', 'openai', 'gpt-5.2', 'pi'],
    ['gemini-3-pro-preview', 'google', 'gemini-3-pro-preview', 'pi'],
    ['grok-code-fast-1', 'xai', 'grok-code-fast-1', 'pi'],
    ['deepseek-v4-flash', 'deepseek', 'deepseek-v4-flash', 'pi'],
    ['minimax-m2.7', 'minimax', 'MiniMax-M2.7', 'pi'],
    ['google/gemini-2.5-flash', 'google', 'gemini-2.5-flash', 'pi'],
    ['qwen/qwen3-32b', 'groq', 'qwen/qwen3-32b', 'pi'],
    ['openrouter/openai/o3-mini-high', 'openrouter', 'openai/o3-mini-high', 'pi'],
    [
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'anthropic',
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'claude-code',
    ],
    ['claude-sonnet-4', 'anthropic', 'claude-sonnet-4', 'claude-code'],
  ])('routes the bare or prefixed id %s to %s as %s on %s', (id, provider, model, harness) => {
    expect(checkModelId(id, catalog, BOTH).ok).toBe(true);
    expect(selectHarness(id)).toMatchObject({ provider, model, harness });
  });

  it('reads an effort suffix that is part of an id as the id', () => {
    expect(selectHarness('openrouter/openai/o3-mini-high')).not.toHaveProperty('effort');
    expect(selectHarness('pi/google/gemini-2.5-flash-high')).toMatchObject({
      model: 'gemini-2.5-flash',
      effort: 'high',
    });
  });

  it.each([
    ['pi/opneai/gpt-5.2', ['pi/openai/gpt-5.2']],
    ['gemini-2.5-flahs', ['gemini-2.5-flash']],
  ])('refuses %s (no provider it could go to) and suggests %j first', (id, expected) => {
    const check = checkModelId(id, catalog, BOTH);
    expect(check).toMatchObject({ ok: false, code: 'unknown_model' });
    if (check.ok) return;
    expect(check.suggestions?.slice(0, expected.length)).toEqual(expected);
    expect(check.suggestion).toBe(expected[0]);
    expect(check.message).toContain(`Did you mean ${JSON.stringify(expected[0])}?`);
  });

  it.each([
    ['openai/gpt-5.6', []],
    ['pi/zai/glm-4.6', ['pi/vercel-ai-gateway/zai/glm-4.6', 'pi/zai/glm-4.7']],
    ['pi/openai/gpt-5.22', ['pi/openai/gpt-5.2']],
    ['pi/openai/gemini-2.5-flash', ['pi/google/gemini-2.5-flash']],
    ['zai/glm-4.6', ['vercel-ai-gateway/zai/glm-4.6', 'zai/glm-4.7']],
    ['moonshotai/kimi-k2-instruct', ['groq/moonshotai/kimi-k2-instruct']],
    ['pi/openrouter/anthropic/claude-sonnet-4-5', ['pi/openrouter/anthropic/claude-sonnet-4.5']],
  ])(
    'accepts %s, a provider Pi knows with a model its registry lacks, as uncatalogued (closest: %j)',
    (id, expected) => {
      // Pi asks the provider for such an id as written, so it runs (a model newer than the
      // registry); it is unpriced, and the warning offers the closest listed ids.
      const check = checkModelId(id, catalog, BOTH);
      expect(check.ok).toBe(true);
      if (!check.ok) return;
      expect(check.uncatalogued?.message).toContain('is not in the model catalog');
      expect(check.uncatalogued?.suggestions.slice(0, expected.length)).toEqual(expected);
    },
  );

  it('names the providers when a pi/ id names none the catalog knows', () => {
    const check = checkModelId('pi/ollama/qwen3:8b', catalog, BOTH);
    expect(check).toMatchObject({ ok: false, code: 'unknown_model' });
    expect(check.ok === false && check.message).toContain('no provider "ollama"');
  });
});

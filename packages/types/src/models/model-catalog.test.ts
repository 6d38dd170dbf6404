import { describe, expect, it } from 'vitest';
import { addTokenUsage, emptyTokenUsage } from '../common.js';
import { costOfUsage, createModelCatalog, defaultModelCatalog } from './model-catalog.js';
import { MODEL_CATALOG } from './model-catalog-data.js';

const catalog = defaultModelCatalog;

describe('ModelCatalog.resolve()', () => {
  it.each([
    ['claude-opus-4-5', 'opus', '4.5'],
    ['claude-opus-4-20250514', 'opus', '4.0'],
    ['claude-opus-4-1-20250805', 'opus', '4.1'],
    ['claude-sonnet-4-5-20250929', 'sonnet', '4.5'],
    ['claude-haiku-4-5', 'haiku', '4.5'],
    ['claude-opus-5-5', 'opus', '5.5'],
    ['claude-sonnet-5', 'sonnet', '5.0'],
    ['claude-3-5-haiku-20241022', 'haiku', '3.5'],
    ['claude-3-7-sonnet-20250219', 'sonnet', '3.7'],
    ['claude-3-opus-20240229', 'opus', '3.0'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'sonnet', '4.5'],
    ['claude-sonnet-4-5@20250929', 'sonnet', '4.5'],
    ['Claude-Opus-4-6', 'opus', '4.6'],
    ['anthropic/claude-haiku-4-5', 'haiku', '4.5'],
  ])('reads %s as %s %s', (id, family, version) => {
    expect(catalog.resolve(id)).toMatchObject({ family, version, provider: 'anthropic' });
  });

  it('resolves sonnet, opus and haiku to the newest of their family', () => {
    expect(catalog.aliases).toEqual({
      opus: 'claude-opus-5-5',
      sonnet: 'claude-sonnet-5-5',
      haiku: 'claude-haiku-5-5',
    });
    expect(catalog.resolve('sonnet')?.id).toBe('claude-sonnet-5-5');
    expect(catalog.resolve('anthropic/haiku')?.id).toBe('claude-haiku-5-5');
  });

  it('moves an alias when a newer version is added to the table', () => {
    const newer = createModelCatalog([
      ...MODEL_CATALOG,
      {
        id: 'claude-sonnet-6',
        provider: 'anthropic',
        family: 'sonnet',
        version: '6.0',
        contextWindow: 200_000,
        price: { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
      },
    ]);
    expect(newer.aliases.sonnet).toBe('claude-sonnet-6');
    expect(newer.resolve('claude-sonnet-6-20270101')?.id).toBe('claude-sonnet-6');
  });

  it("knows the other providers' models the issue names, with any provider prefix", () => {
    expect(catalog.resolve('gpt-5.2')).toMatchObject({
      provider: 'openai',
      contextWindow: 400_000,
    });
    expect(catalog.resolve('openai/gpt-5.2')?.id).toBe('gpt-5.2');
    expect(catalog.resolve('pi/google/gemini-3-pro-preview')).toMatchObject({
      provider: 'google',
      price: { input: 2, output: 12, cacheRead: 0.2 },
    });
  });

  it('returns undefined for other models', () => {
    expect(catalog.resolve('gpt-9')).toBeUndefined();
    expect(catalog.resolve('<synthetic>')).toBeUndefined();
    expect(catalog.resolve('claude-opus-4-9')).toBeUndefined();
    // A named provider is looked up among its own rows only.
    expect(catalog.resolve('pi/google/gpt-5.2')).toBeUndefined();
  });

  it('gives every row a provider, a context window, an API family, a harness and a full price or none', () => {
    for (const entry of MODEL_CATALOG) {
      expect(entry.provider).not.toBe('');
      expect(entry.contextWindow).toBeGreaterThan(0);
      expect(entry.api).toMatch(/^[a-z-]+$/);
      expect(entry.harness).toBe(entry.provider === 'anthropic' ? 'claude-code' : 'pi');
      if (entry.price !== undefined) {
        expect(Object.keys(entry.price).sort()).toEqual([
          'cacheRead',
          'cacheWrite',
          'input',
          'output',
        ]);
      }
      expect(catalog.resolve(`${entry.provider}/${entry.id}`)).toBe(entry);
    }
    const keys = MODEL_CATALOG.map((entry) => `${entry.provider}/${entry.id}`.toLowerCase());
    expect(new Set(keys).size).toBe(MODEL_CATALOG.length);
  });

  it('prices every Claude row by hand', () => {
    const claude = MODEL_CATALOG.filter((entry) => entry.family !== undefined);
    expect(claude.length).toBeGreaterThan(19);
    for (const entry of claude) expect(entry.price).toBeDefined();
  });
});

describe('ModelCatalog.route()', () => {
  it.each([
    ['sonnet', 'anthropic', 'claude-sonnet-5-5'],
    ['anthropic/claude-haiku-4-5', 'anthropic', 'claude-haiku-4-5'],
    ['claude-sonnet-4-20250514', 'anthropic', 'claude-sonnet-4-20250514'],
    ['openai/gpt-5.2', 'openai', 'gpt-5.2'],
    ['gpt-5.2', 'openai', 'gpt-5.2'],
    ['gemini-3-pro-preview', 'google', 'gemini-3-pro-preview'],
    ['pi/openrouter/kimi-k3', 'openrouter', 'kimi-k3'],
    ['mystery-model', 'unknown', 'mystery-model'],
  ])('routes %s to %s as %s', (id, provider, model) => {
    expect(catalog.route(id)).toMatchObject({ provider, model });
  });
});

describe('ModelCatalog.priceUsage()', () => {
  it('prices input, output, cache writes and cache reads per million tokens', () => {
    const usage = {
      inputTokens: 2700,
      outputTokens: 92,
      cacheCreationTokens: 100,
      cacheReadTokens: 900,
    };
    // Claude Code 2.1.329 reported total_cost_usd 0.010125 for exactly this usage.
    expect(catalog.priceUsage('claude-sonnet-4-5', usage).cost).toBeCloseTo(0.010125, 12);
    expect(catalog.priceUsage('claude-sonnet-4-5', usage).known).toBe(true);
  });

  it.each([
    ['claude-opus-4-6', { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
    ['claude-opus-4-8', { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
    ['claude-opus-4-1', { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
    ['claude-opus-5-5', { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 }],
    ['claude-sonnet-4-6', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
    ['claude-sonnet-5-5', { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 }],
    ['claude-haiku-4-5-20251001', { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
    ['claude-3-5-haiku-20241022', { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
    ['claude-3-haiku-20240307', { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
  ])('knows %s', (id, price) => {
    expect(catalog.resolve(id)?.price).toEqual(price);
  });

  it('costs an unknown model 0 and says it is unknown', () => {
    const usage = {
      inputTokens: 1000,
      outputTokens: 1000,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
    };
    expect(catalog.priceUsage('claude-opus-4-9', usage)).toEqual({ cost: 0, known: false });
    expect(catalog.priceUsage('gpt-9', usage)).toEqual({ cost: 0, known: false });
  });

  it('prices gpt-5.2 at its list price, cached input included', () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheCreationTokens: 0,
      cacheReadTokens: 1_000_000,
    };
    expect(catalog.priceUsage('openai/gpt-5.2', usage)).toEqual({
      cost: expect.closeTo(1.75 + 1.4 + 0.175, 12),
      known: true,
    });
  });

  it('costs a row without a price 0 and says the price is unknown', () => {
    const local = createModelCatalog([
      { id: 'qwen3-coder', provider: 'ollama', contextWindow: 32_768 },
    ]);
    expect(local.resolve('qwen3-coder')?.provider).toBe('ollama');
    expect(local.priceUsage('qwen3-coder', { ...emptyTokenUsage(), inputTokens: 5 })).toEqual({
      cost: 0,
      known: false,
    });
  });

  it('uses a custom table when given one', () => {
    const custom = createModelCatalog([
      {
        id: 'claude-opus-9-9',
        provider: 'anthropic',
        family: 'opus',
        version: '9.9',
        contextWindow: 1,
        price: { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 },
      },
    ]);
    expect(
      custom.priceUsage('claude-opus-9-9', {
        inputTokens: 1_000_000,
        outputTokens: 5,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
      }).cost,
    ).toBe(1);
    expect(custom.priceUsage('claude-opus-4-5', emptyTokenUsage()).known).toBe(false);
    expect(
      costOfUsage(emptyTokenUsage(), { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 }),
    ).toBe(0);
  });
});

describe('addTokenUsage()', () => {
  it('adds every count and returns a new object', () => {
    const a = { inputTokens: 1, outputTokens: 2, cacheCreationTokens: 3, cacheReadTokens: 4 };
    const b = { inputTokens: 10, outputTokens: 20, cacheCreationTokens: 30, cacheReadTokens: 40 };
    expect(addTokenUsage(a, b)).toEqual({
      inputTokens: 11,
      outputTokens: 22,
      cacheCreationTokens: 33,
      cacheReadTokens: 44,
    });
    expect(a.inputTokens).toBe(1);
  });
});

import { createModelCatalog, defaultModelCatalog, MODEL_CATALOG } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { tokenUsageOf } from './llm-call.js';
import { resolveModel } from './models.js';

const env = { ANTHROPIC_API_KEY: 'x' };
const modelIdOf = (model: unknown) => (model as { modelId: string }).modelId;

describe('resolveModel()', () => {
  it('routes ids through the catalog: prefixes, bare claude ids and aliases', () => {
    const route = (id: string) => modelIdOf(resolveModel(id, env, defaultModelCatalog));
    expect(route('anthropic/claude-haiku-4-5')).toBe('claude-haiku-4-5');
    expect(route('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    for (const alias of ['haiku', 'sonnet', 'opus']) {
      expect(route(alias)).toBe(defaultModelCatalog.aliases[alias]);
    }
  });

  it('lets an injected catalog move an alias', () => {
    const newer = {
      id: 'claude-haiku-9',
      provider: 'anthropic',
      family: 'haiku',
      version: '9.0',
      contextWindow: 200_000,
      price: { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
    };
    const catalog = createModelCatalog([...MODEL_CATALOG, newer]);
    expect(modelIdOf(resolveModel('haiku', env, catalog))).toBe('claude-haiku-9');
  });

  it('refuses other providers and a missing key', () => {
    expect(() => resolveModel('openai/gpt-4o', env, defaultModelCatalog)).toThrow(
      expect.objectContaining({ code: 'SENTINEL_PROVIDER_UNSUPPORTED' }),
    );
    expect(() => resolveModel('anthropic/claude-haiku-4-5', {}, defaultModelCatalog)).toThrow(
      expect.objectContaining({ code: 'SENTINEL_PROVIDER_KEY_MISSING' }),
    );
  });
});

describe('tokenUsageOf()', () => {
  it("splits the AI SDK's total input into uncached, cache-read and cache-write tokens", () => {
    expect(
      tokenUsageOf({
        inputTokens: 3400,
        inputTokenDetails: { noCacheTokens: 1000, cacheReadTokens: 2000, cacheWriteTokens: 400 },
        outputTokens: 200,
      }),
    ).toEqual({
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 2000,
      cacheCreationTokens: 400,
    });
  });

  it('takes a usage without cache details as uncached', () => {
    expect(tokenUsageOf({ inputTokens: 10, outputTokens: 2 })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
    });
    expect(tokenUsageOf({})).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
    });
  });
});

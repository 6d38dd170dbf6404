import { createModelCatalog, defaultModelCatalog, MODEL_CATALOG } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { tokenUsageOf } from './llm-usage.js';
import { resolveModel } from './models.js';

const env = { ANTHROPIC_API_KEY: 'x' };
const modelOf = (id: string, options: Parameters<typeof resolveModel>[1] = { env }) =>
  resolveModel(id, options).model as unknown as { modelId: string; provider: string };

describe('resolveModel()', () => {
  it('routes ids through the catalog: prefixes, bare claude ids and aliases', () => {
    const route = (id: string) => modelOf(id).modelId;
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
    const models = createModelCatalog([...MODEL_CATALOG, newer]);
    expect(modelOf('haiku', { env, models }).modelId).toBe('claude-haiku-9');
  });

  it("builds each family's model with its AI SDK package", () => {
    const keys = {
      ANTHROPIC_API_KEY: 'a',
      OPENAI_API_KEY: 'o',
      GEMINI_API_KEY: 'g',
      MISTRAL_API_KEY: 'm',
      OPENROUTER_API_KEY: 'r',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
    };
    const built = (id: string) => {
      const model = modelOf(id, { env: keys });
      return [model.provider, model.modelId];
    };
    expect(built('sonnet')).toEqual(['anthropic.messages', defaultModelCatalog.aliases.sonnet]);
    expect(built('gpt-5.2')).toEqual(['openai.responses', 'gpt-5.2']);
    expect(built('gemini-3-pro-preview')).toEqual(['google.generative-ai', 'gemini-3-pro-preview']);
    expect(built('mistral/mistral-large-latest')).toEqual(['mistral.chat', 'mistral-large-latest']);
    expect(built('pi/openrouter/moonshotai/kimi-k2')).toEqual([
      'openrouter.chat',
      'moonshotai/kimi-k2',
    ]);
    expect(built('ollama/llama3.3')).toEqual(['ollama.chat', 'llama3.3']);
  });

  it('refuses other providers and a missing key', () => {
    expect(() => modelOf('amazon-bedrock/anthropic.claude-haiku-4-5')).toThrow(
      expect.objectContaining({ code: 'SENTINEL_PROVIDER_UNSUPPORTED' }),
    );
    expect(() => modelOf('anthropic/claude-haiku-4-5', { env: {} })).toThrow(
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

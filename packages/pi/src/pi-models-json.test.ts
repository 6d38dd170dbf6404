import { describe, expect, it } from 'vitest';
import { piModelsJson } from './pi-models-json.js';

const url = 'http://127.0.0.1:9/v1';

describe('piModelsJson()', () => {
  it('writes nothing without a base URL', () => {
    expect(piModelsJson({ model: { provider: 'openai', model: 'gpt-5.2' } })).toBeUndefined();
  });

  it.each([
    ['openai', 'gpt-5.2', url],
    ['google', 'gemini-3-pro-preview', url],
    ['openrouter', 'moonshotai/kimi-k2', url],
    ['anthropic', 'claude-sonnet-4-5', 'http://127.0.0.1:9'],
  ])("overrides only the base URL and key of Pi's own provider %s", (provider, model, baseUrl) => {
    expect(piModelsJson({ model: { provider, model }, baseUrl: url, keyVariable: 'KEY' })).toEqual({
      providers: { [provider]: { baseUrl, apiKey: 'KEY' } },
    });
  });

  it('declares a provider Pi does not know on Chat Completions, with a placeholder key', () => {
    expect(
      piModelsJson({ model: { provider: 'ollama', model: 'qwen3:8b' }, baseUrl: url }),
    ).toEqual({
      providers: {
        ollama: {
          baseUrl: url,
          api: 'openai-completions',
          apiKey: 'hankweave-no-key',
          models: [{ id: 'qwen3:8b' }],
        },
      },
    });
  });

  it('declares the provider with the forced api, even one Pi ships with', () => {
    const forced = piModelsJson({
      model: { provider: 'openai', model: 'gpt-5.2' },
      baseUrl: url,
      api: 'openai-completions',
      keyVariable: 'OPENAI_API_KEY',
    });
    expect(forced).toEqual({
      providers: {
        openai: {
          baseUrl: url,
          api: 'openai-completions',
          apiKey: 'OPENAI_API_KEY',
          models: [{ id: 'gpt-5.2' }],
        },
      },
    });
    const anthropic = piModelsJson({
      model: { provider: 'my-proxy', model: 'claude-x' },
      baseUrl: url,
      api: 'anthropic-messages',
    });
    expect(anthropic).toMatchObject({
      providers: { 'my-proxy': { baseUrl: 'http://127.0.0.1:9' } },
    });
  });
});

import {
  createModelCatalog,
  MODEL_CATALOG,
  PI_REGISTRY_ROWS,
  providerBaseUrlName,
} from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { resolveSentinelProvider } from './sentinel-provider.js';

const KEYS = {
  ANTHROPIC_API_KEY: 'a',
  OPENAI_API_KEY: 'o',
  GEMINI_API_KEY: 'g',
  MISTRAL_API_KEY: 'm',
  OPENROUTER_API_KEY: 'r',
  DEEPSEEK_API_KEY: 'd',
  MINIMAX_API_KEY: 'x',
};

const resolve = (id: string, options: Parameters<typeof resolveSentinelProvider>[1] = {}) =>
  resolveSentinelProvider(id, { env: KEYS, ...options });

describe('resolveSentinelProvider()', () => {
  it("picks the API the agents speak to each provider, and that provider's own endpoint", () => {
    const table = [
      'anthropic/claude-haiku-4-5',
      'sonnet',
      'gpt-5.2',
      'openai/gpt-5.2',
      'gemini-3-pro-preview',
      'google/gemini-3-pro-preview',
      'mistral/mistral-large-latest',
      'pi/openrouter/moonshotai/kimi-k2',
      'deepseek/deepseek-chat',
      'minimax/MiniMax-M2',
    ].map((id) => {
      const { provider, api, packageName, baseURL, baseUrlFrom, keyVariable } = resolve(id);
      return { id, provider, api, packageName, baseURL, baseUrlFrom, keyVariable };
    });
    expect(table).toMatchInlineSnapshot(`
      [
        {
          "api": "anthropic-messages",
          "baseURL": "https://api.anthropic.com/v1",
          "baseUrlFrom": "default",
          "id": "anthropic/claude-haiku-4-5",
          "keyVariable": "ANTHROPIC_API_KEY",
          "packageName": "@ai-sdk/anthropic",
          "provider": "anthropic",
        },
        {
          "api": "anthropic-messages",
          "baseURL": "https://api.anthropic.com/v1",
          "baseUrlFrom": "default",
          "id": "sonnet",
          "keyVariable": "ANTHROPIC_API_KEY",
          "packageName": "@ai-sdk/anthropic",
          "provider": "anthropic",
        },
        {
          "api": "openai-responses",
          "baseURL": "https://api.openai.com/v1",
          "baseUrlFrom": "default",
          "id": "gpt-5.2",
          "keyVariable": "OPENAI_API_KEY",
          "packageName": "@ai-sdk/openai",
          "provider": "openai",
        },
        {
          "api": "openai-responses",
          "baseURL": "https://api.openai.com/v1",
          "baseUrlFrom": "default",
          "id": "openai/gpt-5.2",
          "keyVariable": "OPENAI_API_KEY",
          "packageName": "@ai-sdk/openai",
          "provider": "openai",
        },
        {
          "api": "google-generative-ai",
          "baseURL": "https://generativelanguage.googleapis.com/v1beta",
          "baseUrlFrom": "default",
          "id": "gemini-3-pro-preview",
          "keyVariable": "GEMINI_API_KEY",
          "packageName": "@ai-sdk/google",
          "provider": "google",
        },
        {
          "api": "google-generative-ai",
          "baseURL": "https://generativelanguage.googleapis.com/v1beta",
          "baseUrlFrom": "default",
          "id": "google/gemini-3-pro-preview",
          "keyVariable": "GEMINI_API_KEY",
          "packageName": "@ai-sdk/google",
          "provider": "google",
        },
        {
          "api": "mistral-conversations",
          "baseURL": "https://api.mistral.ai/v1",
          "baseUrlFrom": "default",
          "id": "mistral/mistral-large-latest",
          "keyVariable": "MISTRAL_API_KEY",
          "packageName": "@ai-sdk/mistral",
          "provider": "mistral",
        },
        {
          "api": "openai-completions",
          "baseURL": "https://openrouter.ai/api/v1",
          "baseUrlFrom": "default",
          "id": "pi/openrouter/moonshotai/kimi-k2",
          "keyVariable": "OPENROUTER_API_KEY",
          "packageName": "@ai-sdk/openai-compatible",
          "provider": "openrouter",
        },
        {
          "api": "openai-completions",
          "baseURL": "https://api.deepseek.com",
          "baseUrlFrom": "default",
          "id": "deepseek/deepseek-chat",
          "keyVariable": "DEEPSEEK_API_KEY",
          "packageName": "@ai-sdk/openai-compatible",
          "provider": "deepseek",
        },
        {
          "api": "anthropic-messages",
          "baseURL": "https://api.minimax.io/anthropic/v1",
          "baseUrlFrom": "default",
          "id": "minimax/MiniMax-M2",
          "keyVariable": "MINIMAX_API_KEY",
          "packageName": "@ai-sdk/anthropic",
          "provider": "minimax",
        },
      ]
    `);
  });

  it('routes plain ids and aliases through the catalog, and drops an effort suffix', () => {
    expect(resolve('gpt-5.2-high')).toMatchObject({ provider: 'openai', model: 'gpt-5.2' });
    expect(resolve('opencode/google/gemini-3-pro-preview-xhigh')).toMatchObject({
      provider: 'google',
      model: 'gemini-3-pro-preview',
    });
    // A plain id routes to Mistral once the catalog lists it (as Pi's registry does).
    const mistral = {
      id: 'mistral-large-latest',
      provider: 'mistral',
      contextWindow: 128_000,
    };
    const models = createModelCatalog([...MODEL_CATALOG, mistral]);
    expect(resolve('mistral-large-latest', { models })).toMatchObject({
      provider: 'mistral',
      api: 'mistral-conversations',
      packageName: '@ai-sdk/mistral',
    });
  });

  it('reads keys and base URLs from the variables the agents use, HANKWEAVE_SENTINEL_ first', () => {
    expect(
      resolve('gpt-5.2', {
        env: {
          OPENAI_API_KEY: 'agent',
          HANKWEAVE_SENTINEL_OPENAI_API_KEY: 'sentinel',
          OPENAI_BASE_URL: 'http://proxy.test/v1/',
        },
      }),
    ).toMatchObject({
      keyVariable: 'HANKWEAVE_SENTINEL_OPENAI_API_KEY',
      baseURL: 'http://proxy.test/v1',
      baseUrlFrom: 'OPENAI_BASE_URL',
    });
    // Gemini's key is GEMINI_API_KEY; the generic <PROVIDER>_API_KEY counts too, as for Pi.
    expect(resolve('gemini-3-pro-preview', { env: { GOOGLE_API_KEY: 'g' } })).toMatchObject({
      keyVariable: 'GOOGLE_API_KEY',
    });
    expect(
      resolve('gemini-3-pro-preview', {
        env: { GEMINI_API_KEY: 'g', HANKWEAVE_SENTINEL_GOOGLE_BASE_URL: 'http://gw.test/v1beta' },
      }),
    ).toMatchObject({
      baseURL: 'http://gw.test/v1beta',
      baseUrlFrom: 'HANKWEAVE_SENTINEL_GOOGLE_BASE_URL',
    });
  });

  it("puts the /v1 that Anthropic's and Mistral's SDKs append on a host-root base URL", () => {
    for (const url of [
      'http://127.0.0.1:9000',
      'http://127.0.0.1:9000/v1',
      'http://127.0.0.1:9000/',
    ]) {
      expect(resolve('haiku', { env: { ANTHROPIC_BASE_URL: url } }).baseURL).toBe(
        'http://127.0.0.1:9000/v1',
      );
      expect(resolve('mistral/mistral-small', { env: { MISTRAL_BASE_URL: url } }).baseURL).toBe(
        'http://127.0.0.1:9000/v1',
      );
    }
  });

  it('speaks Chat Completions to a provider Pi does not know, at <PROVIDER>_BASE_URL', () => {
    expect(
      resolve('ollama/llama3.3', { env: { OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1' } }),
    ).toEqual({
      provider: 'ollama',
      model: 'llama3.3',
      api: 'openai-completions',
      packageName: '@ai-sdk/openai-compatible',
      baseURL: 'http://127.0.0.1:11434/v1',
      baseUrlFrom: 'OLLAMA_BASE_URL',
    });
    expect(
      resolve('pi/my-server/qwen3', {
        env: { MY_SERVER_BASE_URL: 'http://10.0.0.2:8000/v1', MY_SERVER_API_KEY: 'k' },
      }),
    ).toMatchObject({ provider: 'my-server', keyVariable: 'MY_SERVER_API_KEY' });
  });

  it('sends every provider but Anthropic to the baseUrl option, which needs no key', () => {
    const options = { env: {}, baseUrl: 'http://127.0.0.1:9000/v1' };
    expect(resolve('gpt-5.2', options)).toMatchObject({
      api: 'openai-responses',
      baseURL: 'http://127.0.0.1:9000/v1',
      baseUrlFrom: 'option',
    });
    expect(resolve('gpt-5.2', options).keyVariable).toBeUndefined();
    expect(resolve('gemini-3-pro-preview', options).baseURL).toBe('http://127.0.0.1:9000/v1');
    expect(resolve('mistral/mistral-small', options).baseURL).toBe('http://127.0.0.1:9000/v1');
    expect(resolve('vllm/qwen3', options).api).toBe('openai-completions');
    // It wins over the variable, as the runtime's piBaseUrl does for Pi codons.
    expect(
      resolve('gpt-5.2', { ...options, env: { OPENAI_BASE_URL: 'http://elsewhere.test/v1' } }),
    ).toMatchObject({ baseUrlFrom: 'option' });
    // Anthropic keeps ANTHROPIC_BASE_URL (the runtime's anthropicBaseUrl).
    expect(() => resolve('haiku', options)).toThrow(
      expect.objectContaining({ code: 'SENTINEL_PROVIDER_KEY_MISSING' }),
    );
  });

  it('forces the API spoken to a base URL with the api option', () => {
    const forced = resolve('gpt-5.2', {
      env: { OPENAI_BASE_URL: 'http://vllm.test/v1' },
      api: 'openai-completions',
    });
    expect(forced).toMatchObject({
      api: 'openai-completions',
      packageName: '@ai-sdk/openai-compatible',
    });
    // Without a base URL the provider's own API stays.
    expect(resolve('gpt-5.2', { api: 'openai-completions' }).api).toBe('openai-responses');
    expect(() =>
      resolve('gpt-5.2', { baseUrl: 'http://127.0.0.1:9/v1', api: 'bedrock-converse-stream' }),
    ).toThrow(expect.objectContaining({ code: 'SENTINEL_PROVIDER_UNSUPPORTED' }));
  });

  it('names the variables to set when the key is missing', () => {
    const missing = (id: string) => {
      try {
        resolveSentinelProvider(id, { env: {} });
      } catch (error) {
        return error as { code: string; details: { variables: string[] } };
      }
      throw new Error(`${id} resolved without a key`);
    };
    expect(missing('gpt-5.2')).toMatchObject({
      code: 'SENTINEL_PROVIDER_KEY_MISSING',
      details: { variables: ['HANKWEAVE_SENTINEL_OPENAI_API_KEY', 'OPENAI_API_KEY'] },
    });
    expect(missing('gemini-3-pro-preview').details.variables).toEqual([
      'HANKWEAVE_SENTINEL_GEMINI_API_KEY',
      'HANKWEAVE_SENTINEL_GOOGLE_API_KEY',
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
    ]);
    expect(missing('mistral/mistral-small').details.variables).toContain('MISTRAL_API_KEY');
  });

  it('refuses an id without a provider, providers sentinels cannot call, and an unnamed server', () => {
    const refused = (id: string) => () => resolve(id);
    const unsupported = expect.objectContaining({ code: 'SENTINEL_PROVIDER_UNSUPPORTED' });
    expect(refused('some-model')).toThrow(unsupported);
    expect(refused('amazon-bedrock/anthropic.claude-haiku-4-5')).toThrow(unsupported);
    expect(refused('pi/azure-openai-responses/gpt-5.2')).toThrow(unsupported);
    expect(refused('google-vertex/gemini-3-pro-preview')).toThrow(unsupported);
    // A provider named like an Object property is just an unknown server.
    expect(refused('constructor/some-model')).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ variable: 'CONSTRUCTOR_BASE_URL' }),
      }),
    );
    expect(refused('ollama/llama3.3')).toThrow(
      expect.objectContaining({
        code: 'SENTINEL_PROVIDER_UNSUPPORTED',
        details: expect.objectContaining({ variable: 'OLLAMA_BASE_URL' }),
      }),
    );
  });
});

describe("the sentinels' provider table against Pi's registry", () => {
  it('speaks to every model of a provider it serves the API Pi speaks to it', () => {
    let checked = 0;
    for (const [provider, id, api] of PI_REGISTRY_ROWS) {
      const env = { [providerBaseUrlName(provider)]: 'http://127.0.0.1:9', ...KEYS };
      let chosen: string | undefined;
      try {
        chosen = resolveSentinelProvider(`pi/${provider}/${id}`, { env }).api;
      } catch (error) {
        // Providers the sentinels refuse (cloud signing, logins, mixed APIs) are left to Pi.
        expect((error as { code?: string }).code).toBe('SENTINEL_PROVIDER_UNSUPPORTED');
        continue;
      }
      expect({ provider, id, api: chosen }).toEqual({ provider, id, api });
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });
});

import { providerBaseUrlName } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { buildPiEnvironment } from './pi-environment.js';
import { providerKeyVariable, resolvePiModel } from './pi-model.js';

describe('resolvePiModel()', () => {
  it.each([
    ['gpt-5.2', { provider: 'openai', model: 'gpt-5.2', thinking: 'high' }],
    ['gpt-5.2-xhigh', { provider: 'openai', model: 'gpt-5.2', thinking: 'xhigh' }],
    ['gemini-3-pro-preview', { provider: 'google', model: 'gemini-3-pro-preview' }],
    ['pi/openrouter/moonshotai/kimi-k2', { provider: 'openrouter', model: 'moonshotai/kimi-k2' }],
  ])('reads %s as reference §1.9 does', (id, expected) => {
    expect(resolvePiModel(id)).toEqual(expected);
  });

  it('takes the provider option for an id that names none', () => {
    expect(resolvePiModel('qwen3-local', { provider: 'ollama' })).toMatchObject({
      provider: 'ollama',
      model: 'qwen3-local',
    });
  });

  it('rejects an id with no known provider with HARNESS_INVALID_OPTIONS', () => {
    expect(() => resolvePiModel('qwen3-local')).toThrow(
      expect.objectContaining({ code: 'HARNESS_INVALID_OPTIONS' }),
    );
  });
});

describe('providerKeyVariable()', () => {
  it('names the first set key variable, never its value', () => {
    expect(providerKeyVariable('google', { GEMINI_API_KEY: 'secret' })).toBe('GEMINI_API_KEY');
    expect(providerKeyVariable('ollama', { OLLAMA_API_KEY: 'x' })).toBe('OLLAMA_API_KEY');
    expect(providerKeyVariable('openai', { OPENAI_API_KEY: '' })).toBeUndefined();
    expect(providerBaseUrlName('my-server')).toBe('MY_SERVER_BASE_URL');
    expect(providerBaseUrlName('azure-openai-responses')).toBe('AZURE_OPENAI_BASE_URL');
  });
});

describe('buildPiEnvironment()', () => {
  const model = { provider: 'openai', model: 'gpt-5.2' };

  it('passes the provider key and base URL, which the shared rules leave out', () => {
    const { env, baseUrl, keyVariable } = buildPiEnvironment({
      model,
      baseEnv: {
        PATH: '/bin',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
        GEMINI_API_KEY: 'other provider',
        SECRET: 'never',
      },
    });
    expect(env).toEqual({
      PATH: '/bin',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
    });
    expect(baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(keyVariable).toBe('OPENAI_API_KEY');
  });

  it("lets the codon's env set and unset provider variables", () => {
    const { env } = buildPiEnvironment({
      model,
      baseEnv: { OPENAI_API_KEY: 'base', OPENAI_BASE_URL: 'http://a' },
      codonEnv: { OPENAI_API_KEY: 'codon', OPENAI_BASE_URL: 'unset' },
    });
    expect(env).toEqual({ OPENAI_API_KEY: 'codon' });
  });

  it('maps HANKWEAVE_OPENAI_API_KEY to the key, as for every agent', () => {
    const { keyVariable } = buildPiEnvironment({
      model,
      baseEnv: { HANKWEAVE_OPENAI_API_KEY: 'k' },
    });
    expect(keyVariable).toBe('OPENAI_API_KEY');
  });

  it("passes the key and settings Pi reads for Azure, Bedrock and Vertex, under Pi's names", () => {
    const baseEnv = {
      AZURE_OPENAI_API_KEY: 'az',
      AZURE_OPENAI_RESOURCE_NAME: 'team',
      AZURE_OPENAI_API_VERSION: 'v1',
      AWS_PROFILE: 'dev',
      AWS_REGION: 'eu-west-1',
      AWS_SECRET_ACCESS_KEY: 's',
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
      MOONSHOT_API_KEY: 'm',
      CLOUDFLARE_API_KEY: 'c',
      CLOUDFLARE_ACCOUNT_ID: 'acct',
      CLOUDFLARE_GATEWAY_ID: 'gw',
    };
    const envOf = (provider: string) =>
      buildPiEnvironment({ model: { provider, model: 'x' }, baseEnv }).env;
    expect(envOf('azure-openai-responses')).toEqual({
      AZURE_OPENAI_API_KEY: 'az',
      AZURE_OPENAI_RESOURCE_NAME: 'team',
      AZURE_OPENAI_API_VERSION: 'v1',
    });
    expect(envOf('amazon-bedrock')).toEqual({
      AWS_PROFILE: 'dev',
      AWS_REGION: 'eu-west-1',
      AWS_SECRET_ACCESS_KEY: 's',
    });
    expect(envOf('google-vertex')).toEqual({
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
    });
    expect(envOf('moonshotai')).toEqual({ MOONSHOT_API_KEY: 'm' });
    expect(envOf('cloudflare-workers-ai')).toEqual({
      CLOUDFLARE_API_KEY: 'c',
      CLOUDFLARE_ACCOUNT_ID: 'acct',
    });
    // Another provider's settings stay out.
    expect(envOf('ollama')).toEqual({});
  });

  it("points Azure's own endpoint variables at a local server given as baseUrl", () => {
    const { env } = buildPiEnvironment({
      model: { provider: 'azure-openai-responses', model: 'gpt-5.2' },
      baseEnv: {
        AZURE_OPENAI_BASE_URL: 'https://team.openai.azure.com',
        AZURE_OPENAI_RESOURCE_NAME: 'team',
      },
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(env).toEqual({ AZURE_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
  });

  it('refuses a provider without its key and without a local server', () => {
    expect(() => buildPiEnvironment({ model, baseEnv: {} })).toThrow(
      expect.objectContaining({ code: 'HARNESS_INVALID_OPTIONS' }),
    );
    expect(
      buildPiEnvironment({ model, baseEnv: {}, baseUrl: 'http://127.0.0.1:11434/v1' }).baseUrl,
    ).toBe('http://127.0.0.1:11434/v1');
  });
});

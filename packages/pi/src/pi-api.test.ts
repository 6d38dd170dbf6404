import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { providerKeyNames } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { isPiBuiltInProvider, PI_BUILT_IN_PROVIDERS, piApiOf, piBaseUrlFor } from './pi-api.js';
import { resolvePiCli } from './resolve-pi-cli.js';

type Catalog = Record<string, Record<string, { api: string }>>;

// A module of the installed Pi's pi-ai (a dependency of Pi, beside it in node_modules).
async function importPiAi<T>(file: string): Promise<T> {
  const agent = dirname(dirname(realpathSync(resolvePiCli())));
  return (await import(pathToFileURL(join(dirname(agent), 'pi-ai', 'dist', file)).href)) as T;
}

// The installed Pi's own model catalog.
async function installedCatalog(): Promise<Catalog> {
  return (await importPiAi<{ MODELS: Catalog }>('models.generated.js')).MODELS;
}

describe('piApiOf()', () => {
  it.each([
    ['openai', 'openai-responses'],
    ['google', 'google-generative-ai'],
    ['anthropic', 'anthropic-messages'],
    ['openrouter', 'openai-completions'],
    ['ollama', 'openai-completions'],
    ['my-vllm', 'openai-completions'],
    ['opencode', undefined],
  ])("gives %s Pi's family %s", (provider, api) => {
    expect(piApiOf(provider)).toBe(api);
  });

  it('lets a forced api win over the provider’s own', () => {
    expect(piApiOf('openai', 'openai-completions')).toBe('openai-completions');
    expect(piApiOf('ollama', 'anthropic-messages')).toBe('anthropic-messages');
  });

  it("agrees with the installed Pi's catalog, provider by provider", async () => {
    const catalog = await installedCatalog();
    expect(PI_BUILT_IN_PROVIDERS).toEqual(Object.keys(catalog).sort());
    for (const [provider, models] of Object.entries(catalog)) {
      const apis = new Set(Object.values(models).map((model) => model.api));
      expect([provider, piApiOf(provider)]).toEqual([
        provider,
        apis.size === 1 ? [...apis][0] : undefined,
      ]);
      expect(isPiBuiltInProvider(provider)).toBe(true);
    }
  });
});

describe('piBaseUrlFor()', () => {
  it('drops a trailing /v1 for the Anthropic family, whose SDK appends /v1/messages', () => {
    expect(piBaseUrlFor('anthropic-messages', 'http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9');
    expect(piBaseUrlFor('anthropic-messages', 'http://127.0.0.1:9/v1/')).toBe('http://127.0.0.1:9');
    expect(piBaseUrlFor('anthropic-messages', 'https://proxy/anthropic')).toBe(
      'https://proxy/anthropic',
    );
  });

  it('keeps the URL for the other families, whose clients append only the method', () => {
    for (const api of [
      'openai-completions',
      'openai-responses',
      'google-generative-ai',
      undefined,
    ]) {
      expect(piBaseUrlFor(api, 'http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9/v1');
    }
  });
});

describe('providerKeyNames() for the providers Pi runs', () => {
  // They sign in with their cloud's credentials (Bedrock, Vertex) or a login (Copilot, Codex).
  const NO_KEY_OF_THEIR_OWN = new Set([
    'amazon-bedrock',
    'google-vertex',
    'github-copilot',
    'openai-codex',
  ]);

  it('names, for every built-in provider with a key, the variable the installed Pi reads', async () => {
    const { findEnvKeys } = await importPiAi<{
      findEnvKeys: (provider: string) => string[] | undefined;
    }>('env-api-keys.js');
    for (const provider of PI_BUILT_IN_PROVIDERS) {
      const names = providerKeyNames(provider);
      expect([provider, names.length > 0]).toEqual([provider, !NO_KEY_OF_THEIR_OWN.has(provider)]);
      for (const name of names) {
        const before = process.env[name];
        process.env[name] = 'set-by-test';
        try {
          expect([provider, findEnvKeys(provider)]).toEqual([
            provider,
            expect.arrayContaining([name]),
          ]);
        } finally {
          if (before === undefined) delete process.env[name];
          else process.env[name] = before;
        }
      }
    }
  });
});

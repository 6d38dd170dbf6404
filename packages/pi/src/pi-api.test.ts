import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isPiBuiltInProvider, PI_BUILT_IN_PROVIDERS, piApiOf, piBaseUrlFor } from './pi-api.js';
import { resolvePiCli } from './resolve-pi-cli.js';

type Catalog = Record<string, Record<string, { api: string }>>;

// The installed Pi's own model catalog (pi-ai, a dependency of Pi beside it in node_modules).
async function installedCatalog(): Promise<Catalog> {
  const agent = dirname(dirname(realpathSync(resolvePiCli())));
  const file = join(dirname(agent), 'pi-ai', 'dist', 'models.generated.js');
  return ((await import(pathToFileURL(file).href)) as { MODELS: Catalog }).MODELS;
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

import { validateHank } from '@hankweave/hank';
import {
  defaultModelCatalog,
  type HankweaveEvent,
  PI_REGISTRY_ROWS,
  selectHarness,
  type TokenUsage,
} from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// A hank whose codons use models of eight providers of Pi's registry, in the id forms the catalog
// accepts (`pi/<provider>/<model>`, `<provider>/<model>`, a bare id), validated and run on the
// real Pi against the scripted model (a dry run: nothing leaves loopback). Each provider keeps
// its own API family (Responses, generateContent, Messages, Mistral's, Chat Completions) at the
// one base URL; each codon's recorded cost must be the catalog's price of its token usage.
//
// Pi's providers whose family the scripted model does not speak are left out: amazon-bedrock
// (Bedrock Converse with AWS signing), google-vertex (Google credentials) and openai-codex and
// github-copilot (a login).

interface ProviderCase {
  codon: string;
  model: string;
  provider: string;
  /** The request kind the scripted model saw: the provider's own API family. */
  kind: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadInputTokens?: number };
}

const CASES: ProviderCase[] = [
  {
    codon: 'openai',
    model: 'pi/openai/gpt-5.4',
    provider: 'openai',
    kind: 'responses',
    usage: { inputTokens: 1200, outputTokens: 80, cacheReadInputTokens: 400 },
  },
  {
    codon: 'google',
    model: 'google/gemini-2.5-flash',
    provider: 'google',
    kind: 'generate-content',
    usage: { inputTokens: 2100, outputTokens: 90, cacheReadInputTokens: 300 },
  },
  {
    codon: 'anthropic',
    model: 'pi/anthropic/claude-haiku-4-5',
    provider: 'anthropic',
    kind: 'messages',
    usage: { inputTokens: 1500, outputTokens: 70, cacheReadInputTokens: 500 },
  },
  {
    // Mistral's API has no cache counts: the script gives none.
    codon: 'mistral',
    model: 'pi/mistral/devstral-medium-latest',
    provider: 'mistral',
    kind: 'chat-completions',
    usage: { inputTokens: 1800, outputTokens: 60 },
  },
  {
    codon: 'xai',
    model: 'xai/grok-code-fast-1',
    provider: 'xai',
    kind: 'chat-completions',
    usage: { inputTokens: 2500, outputTokens: 110, cacheReadInputTokens: 700 },
  },
  {
    codon: 'groq',
    model: 'pi/groq/llama-3.3-70b-versatile',
    provider: 'groq',
    kind: 'chat-completions',
    usage: { inputTokens: 900, outputTokens: 40 },
  },
  {
    // A bare id several providers list: the provider that serves it under its own name.
    codon: 'deepseek',
    model: 'deepseek-v4-flash',
    provider: 'deepseek',
    kind: 'chat-completions',
    usage: { inputTokens: 3000, outputTokens: 120, cacheReadInputTokens: 1000 },
  },
  {
    codon: 'openrouter',
    model: 'pi/openrouter/moonshotai/kimi-k2',
    provider: 'openrouter',
    kind: 'chat-completions',
    usage: { inputTokens: 1100, outputTokens: 55 },
  },
];

const marker = (entry: ProviderCase) => `PROVIDER_${entry.codon.toUpperCase()}`;
const script = {
  conversations: CASES.map((entry) => ({
    match: { marker: marker(entry) },
    turns: [{ content: [{ text: `Done on ${entry.provider}.` }], usage: entry.usage }],
  })),
};
const hank = {
  meta: { name: 'pi-providers', version: '1.0.0' },
  hank: CASES.map((entry) => ({
    id: entry.codon,
    name: entry.codon,
    model: entry.model,
    continuationMode: 'fresh',
    promptText: `Say where you run. ${marker(entry)}`,
  })),
};

const ofType = <T extends HankweaveEvent['type']>(events: HankweaveEvent[], type: T) =>
  events.filter((event): event is Extract<HankweaveEvent, { type: T }> => event.type === type);

/** The script's usage as the agent log records it: cache reads apart from the input. */
const expectedUsage = (entry: ProviderCase): TokenUsage => ({
  inputTokens: entry.usage.inputTokens,
  outputTokens: entry.usage.outputTokens,
  cacheCreationTokens: 0,
  cacheReadTokens: entry.usage.cacheReadInputTokens ?? 0,
});

describe('a hank on eight providers of Pi’s registry', () => {
  let world: TestWorld;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    world = await makeWorld({ hank, script });
    const run = runtimeFor(world, { piBaseUrl: `${world.model.url}/v1` });
    events = run.events;
    await run.runtime.start();
    exitCode = (await run.runtime.finished).exitCode;
  }, 300_000);
  afterAll(() => world?.close());

  it('validates: every model is in the catalog, from Pi’s registry, priced, on Pi', () => {
    const result = validateHank(hank, { harnesses: ['claude-code', 'pi'] });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((warning) => warning.message)).toEqual([]);
    const providers = new Set(PI_REGISTRY_ROWS.map(([provider]) => provider));
    for (const entry of CASES) {
      expect(providers).toContain(entry.provider);
      expect(selectHarness(entry.model)).toMatchObject({ harness: 'pi', provider: entry.provider });
      expect(defaultModelCatalog.resolve(entry.model)?.price).toBeDefined();
    }
    expect(new Set(CASES.map((entry) => entry.provider)).size).toBeGreaterThanOrEqual(6);
  });

  it('refuses a misspelt model, naming the field and the closest ids', () => {
    const typo = { ...hank, hank: [{ ...hank.hank[0], model: 'gpt-5.44' }] };
    const result = validateHank(typo, { harnesses: ['claude-code', 'pi'] });
    expect(result.errors).toEqual([
      expect.objectContaining({
        path: 'hank[0].model',
        code: 'unknown_model',
        message: expect.stringContaining('Did you mean "gpt-5.4"?'),
      }),
    ]);
  });

  it('accepts a model of a known provider that the registry lacks, with a warning naming the closest ids', () => {
    // Newer than Pi's registry, or a typo: Pi asks openai for it as written either way.
    const newer = { ...hank, hank: [{ ...hank.hank[0], model: 'pi/openai/gpt-5.44' }] };
    const result = validateHank(newer, { harnesses: ['claude-code', 'pi'] });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({
        path: 'hank[0].model',
        code: 'uncatalogued_model',
        message: expect.stringContaining('"pi/openai/gpt-5.4"'),
      }),
    );
  });

  it('runs every codon on its provider’s own API family against the scripted model', () => {
    const failures = world.model.requests.filter((request) => request.error);
    expect(failures.map((request) => request.error?.message)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(
      ofType(events, 'codon.completed').map((event) => [event.data.codonId, event.data.success]),
    ).toEqual(CASES.map((entry) => [entry.codon, true]));
    for (const entry of CASES) {
      const requests = world.model.requests.filter((request) =>
        (JSON.stringify(request.body) ?? '').includes(marker(entry)),
      );
      expect(
        requests.map((request) => request.kind),
        entry.codon,
      ).toEqual([entry.kind]);
    }
  });

  it('records each codon’s cost as the catalog’s price of its token usage', () => {
    const completed = ofType(events, 'codon.completed');
    for (const entry of CASES) {
      const usage = ofType(events, 'token.usage').filter(
        (event) => event.data.codonId === entry.codon,
      );
      const recorded = usage.reduce<TokenUsage>(
        (sum, event) => ({
          inputTokens: sum.inputTokens + event.data.inputTokens,
          outputTokens: sum.outputTokens + event.data.outputTokens,
          cacheCreationTokens: sum.cacheCreationTokens + event.data.cacheCreationTokens,
          cacheReadTokens: sum.cacheReadTokens + event.data.cacheReadTokens,
        }),
        { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 },
      );
      expect(recorded, entry.codon).toEqual(expectedUsage(entry));
      const price = defaultModelCatalog.priceUsage(entry.model, recorded);
      expect(price.known).toBe(true);
      expect(price.cost).toBeGreaterThan(0);
      const cost = completed.find((event) => event.data.codonId === entry.codon)?.data.cost;
      expect(cost, entry.codon).toBeCloseTo(price.cost, 12);
    }
  });
});

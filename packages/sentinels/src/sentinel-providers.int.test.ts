import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestKind } from '@hankweave/scripted-model';
import type { CodonSentinelEntry, ModelEntry, TokenUsage } from '@hankweave/types';
import { createModelCatalog, MODEL_CATALOG } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { action, inline, setup } from '../test/helpers.js';
import type { SentinelManagerOptions } from './index.js';

// One sentinel per API family, through the real AI SDK provider package, against the scripted
// model on loopback: the key and base URL come from the variables the agents read, each family's
// request reaches its own path, the output file is written and the call is priced by the catalog.

const USAGE = { inputTokens: 1000, outputTokens: 200, cacheReadInputTokens: 400 };
const script = {
  conversations: [
    {
      match: { marker: 'NARRATE' },
      turns: [{ content: [{ text: 'The agent is working.' }], usage: USAGE }],
    },
    {
      match: { marker: 'REVIEW' },
      turns: [{ content: [{ object: { ok: true, note: 'fine' } }], usage: USAGE }],
    },
  ],
};

// Rows the built-in catalog lacks, priced so that the cost shows the catalog was asked.
const row = (id: string, provider: string): ModelEntry => ({
  id,
  provider,
  contextWindow: 128_000,
  price: { input: 2, output: 6, cacheWrite: 2, cacheRead: 0.2 },
});
const models = createModelCatalog([
  ...MODEL_CATALOG,
  row('mistral-large-latest', 'mistral'),
  row('llama3.3', 'ollama'),
  row('moonshotai/kimi-k2', 'openrouter'),
]);

interface FamilyCase {
  family: string;
  model: string;
  env: (url: string) => Record<string, string>;
  options?: (url: string) => Partial<SentinelManagerOptions>;
  kind: RequestKind;
  path: string;
}

const CASES: FamilyCase[] = [
  {
    family: 'anthropic (@ai-sdk/anthropic)',
    model: 'anthropic/claude-haiku-4-5',
    env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'dummy' }),
    kind: 'messages',
    path: '/v1/messages',
  },
  {
    family: 'openai (@ai-sdk/openai, Responses)',
    model: 'gpt-5.2',
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'dummy' }),
    kind: 'responses',
    path: '/v1/responses',
  },
  {
    family: 'google (@ai-sdk/google)',
    model: 'google/gemini-3-pro-preview',
    env: (url) => ({ GOOGLE_BASE_URL: `${url}/v1beta`, GEMINI_API_KEY: 'dummy' }),
    kind: 'generate-content',
    path: '/v1beta/models/gemini-3-pro-preview:generateContent',
  },
  {
    family: 'mistral (@ai-sdk/mistral)',
    model: 'mistral/mistral-large-latest',
    env: (url) => ({ MISTRAL_BASE_URL: url, MISTRAL_API_KEY: 'dummy' }),
    kind: 'chat-completions',
    path: '/v1/chat/completions',
  },
  {
    family: 'a server Pi does not know (@ai-sdk/openai-compatible)',
    model: 'ollama/llama3.3',
    env: (url) => ({ OLLAMA_BASE_URL: `${url}/v1` }),
    kind: 'chat-completions',
    path: '/v1/chat/completions',
  },
  {
    family: 'openrouter (@ai-sdk/openai-compatible)',
    model: 'pi/openrouter/moonshotai/kimi-k2',
    env: (url) => ({ OPENROUTER_BASE_URL: `${url}/v1`, OPENROUTER_API_KEY: 'dummy' }),
    kind: 'chat-completions',
    path: '/v1/chat/completions',
  },
  {
    family: "openai at the runtime's one base URL (baseUrl option, no key)",
    model: 'openai/gpt-5.2',
    env: () => ({ OPENAI_BASE_URL: 'http://127.0.0.1:9/not-this-one' }),
    options: (url) => ({ baseUrl: `${url}/v1` }),
    kind: 'responses',
    path: '/v1/responses',
  },
  {
    family: 'google at the one base URL',
    model: 'gemini-3-pro-preview',
    env: () => ({}),
    options: (url) => ({ baseUrl: `${url}/v1` }),
    kind: 'generate-content',
    path: '/v1/models/gemini-3-pro-preview:generateContent',
  },
  {
    family: 'openai forced to Chat Completions (api option)',
    model: 'gpt-5.2',
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'dummy' }),
    options: () => ({ api: 'openai-completions' }),
    kind: 'chat-completions',
    path: '/v1/chat/completions',
  },
];

const entries = (...configs: Record<string, unknown>[]) =>
  configs.map((sentinelConfig) => ({ sentinelConfig })) as unknown as CodonSentinelEntry[];

// What every family reports for USAGE: the cache reads apart from the rest of the input.
const TOKENS: TokenUsage = {
  inputTokens: 1000,
  outputTokens: 200,
  cacheReadTokens: 400,
  cacheCreationTokens: 0,
};

const REVIEWER = {
  id: 'reviewer',
  userPromptText: 'REVIEW <%= it.events.length %> events',
  structuredOutput: {
    output: 'object',
    schema: {
      type: 'object',
      properties: { ok: { type: 'boolean' }, note: { type: 'string' } },
      required: ['ok', 'note'],
      additionalProperties: false,
    },
  },
};

describe('sentinels on each provider family (AI SDK against the scripted model)', () => {
  it.each(CASES)('writes a text output and prices it on $family', async (entry) => {
    // The manager reads only the env given: no key or base URL of the test's own leaks in.
    await using t = await setup(script, (url) => ({
      env: entry.env(url),
      models,
      ...entry.options?.(url),
    }));
    const { manager } = t;
    const loaded = await manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ model: entry.model })),
    });
    expect(loaded.failed).toEqual([]);
    manager.observe(action('reading files', 1));
    const [state] = await manager.drain();

    expect(t.model.requests.map((request) => request.error)).toEqual([undefined]);
    expect(t.model.requests.map((request) => [request.kind, request.path])).toEqual([
      [entry.kind, entry.path],
    ]);
    const dir = join(t.hankweaveDir, 'sentinels', 'outputs', 'narrator');
    const [file] = await readdir(dir);
    expect(await readFile(join(dir, file as string), 'utf8')).toBe('The agent is working.\n');
    expect(t.of('sentinel.output')[0]).toMatchObject({
      content: 'The agent is working.',
      tokens: { input: 1400, output: 200 },
    });
    const price = models.priceUsage(entry.model, TOKENS);
    expect(price.known).toBe(true);
    expect(state).toMatchObject({ llmCallCount: 1, failedLLMCalls: 0 });
    expect(state?.totalCost).toBeGreaterThan(0);
    expect(state?.totalCost).toBeCloseTo(price.cost, 12);
  });

  it.each(CASES)('writes a structured output on $family', async (entry) => {
    await using t = await setup(script, (url) => ({
      env: entry.env(url),
      models,
      ...entry.options?.(url),
    }));
    const loaded = await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ ...REVIEWER, model: entry.model })),
    });
    expect(loaded.failed).toEqual([]);
    t.manager.observe(action('reading files', 1));
    const [state] = await t.manager.drain();

    expect(t.model.requests.map((request) => request.error)).toEqual([undefined]);
    expect(t.model.requests[0]?.kind).toBe(entry.kind);
    const dir = join(t.hankweaveDir, 'sentinels', 'outputs', 'reviewer');
    const [file] = await readdir(dir);
    expect(file).toMatch(/\.ndjson$/);
    const lines = (await readFile(join(dir, file as string), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ sentinelId: 'reviewer', output: { ok: true, note: 'fine' } }),
    ]);
    expect(state?.totalCost).toBeCloseTo(models.priceUsage(entry.model, TOKENS).cost, 12);
  });

  it('asks for the model without its effort suffix and prices it as that model', async () => {
    await using t = await setup(script, (url) => ({
      env: { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'dummy' },
      models,
    }));
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ model: 'gpt-5.2-high' })),
    });
    t.manager.observe(action('reading files', 1));
    const [state] = await t.manager.drain();
    expect(t.model.requests[0]?.body).toMatchObject({ model: 'gpt-5.2' });
    expect(state?.totalCost).toBeCloseTo(models.priceUsage('gpt-5.2', TOKENS).cost, 12);
  });
});

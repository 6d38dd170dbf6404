import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readState } from '@hankweave/state';
import {
  defaultModelCatalog,
  type HankweaveEvent,
  sentinelStateSchema,
  type TokenUsage,
} from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// The example's first codon (the real Claude Code) watched by two sentinels on models that are
// not Anthropic's: a narrator on Gemini (a sentinel file) and a reviewer on GPT-5.2 (inline,
// structured). No provider key is set: like a dry run, the runtime's piBaseUrl sends them to the
// scripted model, each in its provider's own API.

const USAGE = { inputTokens: 300, outputTokens: 12, cacheReadInputTokens: 100 };
const narrator = {
  id: 'narrator',
  name: 'Narrator',
  model: 'google/gemini-3-pro-preview',
  trigger: { type: 'event', on: ['assistant.action'] },
  execution: { strategy: 'debounce', milliseconds: 150 },
  systemPromptText: 'GEMINI_NARRATOR: narrate the agent in one sentence.',
  userPromptText: '<%= it.events.length %> new events in <%= it.codon.name %>.',
};
const reviewer = {
  id: 'reviewer',
  name: 'Reviewer',
  model: 'gpt-5.2',
  trigger: { type: 'event', on: ['*'] },
  // One batch, flushed when the codon's sentinels drain.
  execution: { strategy: 'count', threshold: 1000 },
  systemPromptText: 'GPT_REVIEWER: review the codon.',
  userPromptText: 'Review <%= it.codon.name %>.',
  structuredOutput: {
    output: 'object',
    schema: {
      type: 'object',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
      additionalProperties: false,
    },
  },
};

describe('sentinels on other providers in a run', () => {
  let world: TestWorld;
  let executionDir: string;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    const hank = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'hank.json'), 'utf8'));
    hank.hank = [
      {
        ...hank.hank[0],
        sentinels: [{ sentinelConfig: 'sentinels/narrator.json' }, { sentinelConfig: reviewer }],
      },
    ];
    const script = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'model-script.json'), 'utf8'));
    script.conversations.push(
      {
        name: 'narrator',
        match: { marker: 'GEMINI_NARRATOR' },
        turns: Array.from({ length: 8 }, () => ({
          content: [{ text: 'The agent is reading the data.' }],
          usage: USAGE,
        })),
      },
      {
        name: 'reviewer',
        match: { marker: 'GPT_REVIEWER' },
        turns: [{ content: [{ object: { ok: true } }], usage: USAGE }],
      },
    );
    world = await makeWorld({
      hank,
      script,
      files: { 'sentinels/narrator.json': JSON.stringify(narrator) },
    });
    for (const name of ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY']) {
      delete world.env[name];
      delete world.env[`HANKWEAVE_SENTINEL_${name}`];
    }
    const run = runtimeFor(world, { piBaseUrl: `${world.model.url}/v1` });
    events = run.events;
    await run.runtime.start();
    executionDir = run.runtime.executionDir;
    exitCode = (await run.runtime.finished).exitCode;
  }, 120_000);
  afterAll(() => world?.close());

  it('runs both sentinels against the scripted model, each in its own API', () => {
    expect(world.model.requests.map((request) => request.error?.message)).not.toContainEqual(
      expect.any(String),
    );
    expect(exitCode).toBe(0);
    const errors = events.filter((event) => event.type === 'sentinel.error');
    expect(errors).toEqual([]);
    const paths = world.model.requests.map((request) => `${request.kind} ${request.path}`);
    expect(paths).toContain('generate-content /v1/models/gemini-3-pro-preview:generateContent');
    expect(paths).toContain('responses /v1/responses');
    const outputs = events.filter(
      (event) => event.type === 'sentinel.output',
    ) as HankweaveEvent<'sentinel.output'>[];
    expect(outputs.find((event) => event.data.sentinelId === 'narrator')?.data).toMatchObject({
      outputType: 'text',
      content: 'The agent is reading the data.',
    });
    expect(outputs.find((event) => event.data.sentinelId === 'reviewer')?.data).toMatchObject({
      outputType: 'structured',
      content: { ok: true },
    });
  });

  it('writes both outputs', () => {
    const outputs = join(executionDir, '.hankweave/sentinels/outputs');
    const [narration] = readdirSync(join(outputs, 'narrator'));
    expect(narration).toMatch(/^narrator-observe-\d+\.md$/);
    expect(readFileSync(join(outputs, 'narrator', narration as string), 'utf8')).toContain(
      'The agent is reading the data.',
    );
    const [review] = readdirSync(join(outputs, 'reviewer'));
    const lines = readFileSync(join(outputs, 'reviewer', review as string), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([expect.objectContaining({ output: { ok: true } })]);
  });

  it("records each sentinel's cost at the catalog's price of its model", async () => {
    const { state } = await readState(join(executionDir, '.hankweave'));
    const observe = state.runs[0]?.codons.find((codon) => codon.codonId === 'observe') as {
      sentinels?: { executed?: unknown[]; totalCost: number };
    };
    const executed = (observe.sentinels?.executed ?? []).map((entry) =>
      sentinelStateSchema.parse(entry),
    );
    const tokens: TokenUsage = {
      inputTokens: 300,
      outputTokens: 12,
      cacheReadTokens: 100,
      cacheCreationTokens: 0,
    };
    for (const entry of executed) {
      expect(entry).toMatchObject({ status: 'unloaded', failedLLMCalls: 0 });
      expect(entry.llmCallCount).toBeGreaterThan(0);
      const price = defaultModelCatalog.priceUsage(entry.model, tokens);
      expect(price.known).toBe(true);
      expect(entry.totalCost).toBeCloseTo(entry.llmCallCount * price.cost, 12);
    }
    expect(executed.map((entry) => entry.id).sort()).toEqual(['narrator', 'reviewer']);
    expect(observe.sentinels?.totalCost).toBeCloseTo(
      executed.reduce((sum, entry) => sum + entry.totalCost, 0),
      12,
    );
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readState } from '@hankweave/state';
import type { HankweaveEvent } from '@hankweave/types';
import {
  sentinelEventData,
  sentinelHistoryFileSchema,
  sentinelStateSchema,
} from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

const narrator = {
  id: 'narrator',
  name: 'Narrator',
  model: 'anthropic/claude-haiku-4-5',
  trigger: { type: 'event', on: ['assistant.action', 'tool.result'] },
  execution: { strategy: 'debounce', milliseconds: 150 },
  systemPromptText: 'NARRATOR_SENTINEL: narrate the agent in one sentence.',
  userPromptText: '<%= it.events.length %> new events in <%= it.codon.name %>.',
  conversational: { trimmingStrategy: { type: 'maxTurns', maxTurns: 3 } },
};
const reviewer = {
  id: 'reviewer',
  name: 'Reviewer',
  model: 'anthropic/claude-haiku-4-5',
  trigger: { type: 'event', on: ['*'] },
  execution: { strategy: 'count', threshold: 4 },
  systemPromptText: 'REVIEWER_SENTINEL: review the batch.',
  userPromptText: 'Review <%= it.events.length %> events.',
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

// The example hank with a narrator (text, debounce, conversational) and a reviewer (structured,
// count) on its first codon, all offline: the agent and the sentinels talk to the scripted model.
describe('sentinels in a run', () => {
  let world: TestWorld;
  let executionDir: string;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    const hank = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'hank.json'), 'utf8'));
    hank.hank[0].sentinels = [
      { sentinelConfig: 'sentinels/narrator.json' },
      { sentinelConfig: reviewer },
    ];
    const script = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'model-script.json'), 'utf8'));
    const narration = {
      content: [{ text: 'The agent is reading the data.' }],
      usage: { inputTokens: 300, outputTokens: 12 },
    };
    script.conversations.push(
      {
        name: 'narrator',
        match: { marker: 'NARRATOR_SENTINEL' },
        turns: Array.from({ length: 12 }, () => narration),
      },
      {
        name: 'reviewer',
        match: { marker: 'REVIEWER_SENTINEL' },
        turns: [
          {
            content: [{ object: { ok: true, note: 'fine' } }],
            usage: { inputTokens: 400, outputTokens: 20 },
          },
        ],
      },
    );
    world = await makeWorld({
      hank,
      script,
      files: { 'sentinels/narrator.json': JSON.stringify(narrator) },
    });
    const run = runtimeFor(world);
    events = run.events;
    await run.runtime.start();
    executionDir = run.runtime.executionDir;
    exitCode = (await run.runtime.finished).exitCode;
  }, 120_000);
  afterAll(() => world.close());

  it('runs the hank to the end with both sentinels loaded, triggered and unloaded', () => {
    expect(exitCode).toBe(0);
    const sentinelEvents = events.filter((event) => event.type.startsWith('sentinel.'));
    for (const event of sentinelEvents) {
      expect(
        sentinelEventData[event.type as keyof typeof sentinelEventData].safeParse(event.data)
          .success,
        event.type,
      ).toBe(true);
    }
    const loaded = sentinelEvents
      .filter((event) => event.type === 'sentinel.loaded')
      .map((event) => (event.data as { sentinelId: string }).sentinelId);
    expect(loaded.sort()).toEqual(['narrator', 'reviewer']);
    const outputs = sentinelEvents.filter(
      (event) => event.type === 'sentinel.output',
    ) as HankweaveEvent<'sentinel.output'>[];
    expect(
      outputs.some(
        (event) => event.data.sentinelId === 'narrator' && event.data.outputType === 'text',
      ),
    ).toBe(true);
    const reviews = outputs.filter((event) => event.data.sentinelId === 'reviewer');
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews[0]?.data).toMatchObject({
      outputType: 'structured',
      content: { ok: true, note: 'fine' },
    });
    expect(reviews.every((event) => event.data.eventCount <= 4)).toBe(true);
    const unloaded = sentinelEvents.filter(
      (event) => event.type === 'sentinel.unloaded',
    ) as HankweaveEvent<'sentinel.unloaded'>[];
    expect(unloaded.map((event) => event.data.reason)).toEqual([
      'codon-complete',
      'codon-complete',
    ]);
    // Sentinels never see sentinel events: no sentinel.* event is counted in a reviewer batch.
    expect(events.filter((event) => event.type === 'sentinel.output').length).toBe(outputs.length);
  });

  it('writes outputs and history in the layout of seed 001', () => {
    const outputs = join(executionDir, '.hankweave/sentinels/outputs');
    const narration = readdirSync(join(outputs, 'narrator'));
    expect(narration.some((name) => /^narrator-observe-\d+\.md$/.test(name))).toBe(true);
    const reviews = readdirSync(join(outputs, 'reviewer')).filter((name) =>
      name.endsWith('.ndjson'),
    );
    expect(reviews).toHaveLength(1);
    const lines = readFileSync(join(outputs, 'reviewer', reviews[0] as string), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ sentinelId: 'reviewer', output: { ok: true, note: 'fine' } });
    const historyFile = join(
      executionDir,
      '.hankweave/sentinels/history/narrator-codon-observe.json',
    );
    expect(existsSync(historyFile)).toBe(true);
    const history = sentinelHistoryFileSchema.parse(JSON.parse(readFileSync(historyFile, 'utf8')));
    expect(history.metadata).toMatchObject({ trimStrategy: 'maxTurns', maxTurns: 3 });
    expect(history.turns.filter((turn) => turn.role === 'assistant').length).toBeGreaterThan(0);
  });

  it("keeps the sentinels' final counters in the codon record as `executed`", async () => {
    const { state } = await readState(join(executionDir, '.hankweave'));
    const observe = state.runs[0]?.codons.find((codon) => codon.codonId === 'observe') as {
      sentinels?: { executed?: unknown[]; loaded?: unknown; totalCost: number };
    };
    expect(observe.sentinels?.loaded).toBeUndefined();
    const executed = (observe.sentinels?.executed ?? []).map((entry) =>
      sentinelStateSchema.parse(entry),
    );
    expect(executed.map((entry) => entry.id).sort()).toEqual(['narrator', 'reviewer']);
    for (const entry of executed) {
      expect(entry).toMatchObject({ status: 'unloaded', failedLLMCalls: 0 });
      expect(entry.llmCallCount).toBeGreaterThan(0);
      expect(entry.totalCost).toBeGreaterThan(0);
    }
    expect(observe.sentinels?.totalCost).toBeCloseTo(
      executed.reduce((sum, entry) => sum + entry.totalCost, 0),
      9,
    );
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

const WATCHED = ['codon.started', 'assistant.action', 'tool.result', 'token.usage'] as const;

// A sentinel that calls its model once per event it is handed: how many calls it makes, and how
// many events those calls carry, is exactly how many times each event reached it.
const counter = {
  id: 'counter',
  name: 'Counter',
  model: 'anthropic/claude-haiku-4-5',
  trigger: { type: 'event', on: [...WATCHED] },
  execution: { strategy: 'immediate' },
  systemPromptText: 'COUNTER_SENTINEL: acknowledge.',
  userPromptText: '<%= it.events.length %> event(s).',
};

describe('event delivery to sentinels', () => {
  let world: TestWorld;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    const hank = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'hank.json'), 'utf8'));
    hank.hank = [hank.hank[0]];
    hank.hank[0].sentinels = [{ sentinelConfig: counter }];
    const script = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'model-script.json'), 'utf8'));
    script.conversations.push({
      name: 'counter',
      match: { marker: 'COUNTER_SENTINEL' },
      turns: Array.from({ length: 80 }, () => ({
        content: [{ text: 'ok' }],
        usage: { inputTokens: 50, outputTokens: 1 },
      })),
    });
    world = await makeWorld({ hank, script });
    const run = runtimeFor(world);
    events = run.events;
    await run.runtime.start();
    exitCode = (await run.runtime.finished).exitCode;
  }, 120_000);
  afterAll(() => world.close());

  it('hands every watched event of the codon to the sentinel exactly once', () => {
    expect(exitCode).toBe(0);
    const codonId = (
      events.find((event) => event.type === 'codon.started') as HankweaveEvent<'codon.started'>
    ).data.codonId;
    const watched = events.filter(
      (event) =>
        (WATCHED as readonly string[]).includes(event.type) &&
        (event.data as { codonId?: string }).codonId === codonId,
    );
    // The agent really acted: a delivery bug hidden by an empty codon would prove nothing.
    expect(watched.filter((event) => event.type === 'tool.result').length).toBeGreaterThan(0);
    // `immediate` makes one call per event and announces no trigger: each output is one delivery.
    const outputs = events.filter(
      (event) =>
        event.type === 'sentinel.output' &&
        (event.data as { sentinelId: string }).sentinelId === 'counter',
    ) as HankweaveEvent<'sentinel.output'>[];
    const handed = outputs.reduce((sum, event) => sum + event.data.eventCount, 0);
    expect(handed).toBe(watched.length);
  });
});

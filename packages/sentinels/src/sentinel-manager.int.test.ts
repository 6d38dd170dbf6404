import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs } from '@hankweave/durable-io/testing';
import type { CodonSentinelEntry, SentinelState } from '@hankweave/types';
import {
  createModelCatalog,
  MODEL_CATALOG,
  sentinelEventData,
  sentinelStateSchema,
} from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { action, event, inline, setup } from '../test/helpers.js';

const narratorScript = {
  conversations: [
    {
      match: { marker: 'NARRATE' },
      turns: [
        {
          content: [{ text: 'The agent is working.' }],
          usage: { inputTokens: 1000, outputTokens: 200 },
        },
      ],
    },
  ],
};

const entries = (...configs: Record<string, unknown>[]) =>
  configs.map((sentinelConfig) => ({ sentinelConfig })) as unknown as CodonSentinelEntry[];

describe('SentinelManager (real AI SDK against the scripted model)', () => {
  it('loads an inline sentinel, fires immediately, writes outputs, events and costed state', async () => {
    await using t = await setup(narratorScript);
    const loaded = await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ reportToWebsocket: { triggers: true } })),
    });
    expect(loaded.failed).toEqual([]);
    expect(loaded.states).toMatchObject([{ id: 'narrator', status: 'active', llmCallCount: 0 }]);
    expect(t.manager.loadedCount()).toBe(1);
    t.manager.observe(action('reading files', 1));
    t.manager.observe(event('token.usage', { codonId: 'observe#0' }));
    t.manager.observe(event('sentinel.output', { content: 'NARRATE loop' }));
    const states = await t.manager.drain();

    expect(states[0]).toMatchObject({ llmCallCount: 1, failedLLMCalls: 0, totalTriggers: 1 });
    // claude-haiku-4-5: 1000 in × $1/M + 200 out × $5/M
    expect(states[0]?.totalCost).toBeCloseTo(0.002, 10);
    expect(sentinelStateSchema.parse(states[0])).toBeTruthy();
    expect(t.reports.at(-1)?.totalCost).toBeCloseTo(0.002, 10);

    const [output] = t.of('sentinel.output');
    expect(output).toMatchObject({
      sentinelId: 'narrator',
      codonId: 'observe#0',
      triggerNumber: 1,
      outputType: 'text',
      content: 'The agent is working.',
      tokens: { input: 1000, output: 200 },
      eventCount: 1,
    });
    for (const { type, data } of t.emitted) {
      expect(sentinelEventData[type as keyof typeof sentinelEventData].parse(data)).toBeTruthy();
    }
    expect(t.of('sentinel.loaded')[0]).toMatchObject({
      triggerType: 'event',
      executionStrategy: 'immediate',
      conversational: false,
      source: 'inline',
    });
    expect(t.of('sentinel.triggered')[0]).toMatchObject({ triggerNumber: 1, eventCount: 1 });
    // the prompt saw the event, and the sentinel event was never routed
    expect(t.model.requests).toHaveLength(1);
    expect(JSON.stringify(t.model.requests[0]?.body)).toContain('NARRATE reading files');

    const dir = join(t.hankweaveDir, 'sentinels', 'outputs', 'narrator');
    const [file] = await readdir(dir);
    expect(file).toMatch(/^narrator-observe#0-\d+\.md$/);
    expect(await readFile(join(dir, file as string), 'utf8')).toBe('The agent is working.\n');

    const final = await t.manager.unload('codon-complete');
    expect(final[0]).toMatchObject({ status: 'unloaded', unloadReason: 'codon-complete' });
    expect(t.of('sentinel.unloaded')[0]).toMatchObject({
      reason: 'codon-complete',
      llmCallCount: 1,
    });
    expect(t.manager.loadedCount()).toBe(0);
  });

  it('debounces a burst into one call that sees every event', async () => {
    await using t = await setup(narratorScript);
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ execution: { strategy: 'debounce', milliseconds: 50 } })),
    });
    for (let n = 0; n < 5; n++) t.manager.observe(action(`step ${n}`, n));
    await new Promise((r) => setTimeout(r, 200));
    await t.manager.drain();
    expect(t.model.requests).toHaveLength(1);
    expect(t.of('sentinel.output')[0]).toMatchObject({ eventCount: 5 });
    expect(JSON.stringify(t.model.requests[0]?.body)).toContain('step 0 | step 1');
  });

  it('batches by count and flushes a partial batch on drain', async () => {
    await using t = await setup(narratorScript);
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ execution: { strategy: 'count', threshold: 3 } })),
    });
    for (let n = 0; n < 7; n++) t.manager.observe(action(`step ${n}`, n));
    await t.manager.drain();
    expect(t.of('sentinel.output').map((o) => o.eventCount)).toEqual([3, 3, 1]);
    expect(t.of('sentinel.output').map((o) => o.triggerNumber)).toEqual([1, 2, 3]);
  });

  it('fires a time window once per window with the events it collected', async () => {
    await using t = await setup(narratorScript);
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ execution: { strategy: 'timeWindow', milliseconds: 100 } })),
    });
    t.manager.observe(action('a', 1));
    t.manager.observe(action('b', 2));
    await new Promise((r) => setTimeout(r, 250));
    t.manager.observe(action('c', 3));
    await t.manager.drain();
    expect(t.of('sentinel.output').map((o) => o.eventCount)).toEqual([2, 1]);
  });

  it('fires event triggers only when every condition holds', async () => {
    await using t = await setup(narratorScript);
    const trigger = {
      type: 'event',
      on: ['tool.result'],
      conditions: [
        { path: 'isError', operator: 'equals', value: true },
        { path: 'toolName', operator: 'in', value: ['Bash', 'Write'] },
      ],
    };
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(inline({ trigger, userPromptText: 'NARRATE <%= it.events.length %>' })),
    });
    t.manager.observe(event('tool.result', { toolName: 'Bash', isError: false }));
    t.manager.observe(event('tool.result', { toolName: 'Read', isError: true }));
    t.manager.observe(event('tool.result', { toolName: 'Bash', isError: true }));
    await t.manager.drain();
    expect(t.model.requests).toHaveLength(1);
  });

  it('fires a sequence trigger on the pattern, with the codon name in the template', async () => {
    await using t = await setup(narratorScript);
    const trigger = {
      type: 'sequence',
      interestFilter: { on: ['assistant.action', 'tool.result'] },
      pattern: [
        {
          type: 'assistant.action',
          conditions: [{ path: 'action', operator: 'equals', value: 'tool_use' }],
        },
        { type: 'tool.result', conditions: [{ path: 'isError', operator: 'equals', value: true }] },
      ],
    };
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe Data',
      entries: entries(
        inline({ trigger, userPromptText: 'NARRATE <%= it.codon.name %>/<%= it.codon.id %>' }),
      ),
    });
    t.manager.observe(event('assistant.action', { action: 'tool_use', content: '' }));
    t.manager.observe(event('tool.result', { isError: false }));
    t.manager.observe(event('assistant.action', { action: 'tool_use', content: '' }));
    t.manager.observe(event('tool.result', { isError: true }));
    await t.manager.drain();
    expect(t.of('sentinel.output')).toMatchObject([{ eventCount: 2 }]);
    expect(JSON.stringify(t.model.requests[0]?.body)).toContain('NARRATE Observe Data/observe#0');
  });
});

describe('prices and routes through the model catalog', () => {
  const cachedScript = {
    conversations: [
      {
        match: { marker: 'NARRATE' },
        turns: [
          {
            content: [{ text: 'cached' }],
            usage: {
              inputTokens: 1000,
              outputTokens: 200,
              cacheReadInputTokens: 2000,
              cacheCreationInputTokens: 400,
            },
          },
        ],
      },
    ],
  };

  it('prices cache reads and writes at their own prices', async () => {
    await using t = await setup(cachedScript);
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'O',
      entries: entries(inline()),
    });
    t.manager.observe(action('x'));
    const [state] = await t.manager.drain();
    // claude-haiku-4-5: 1000 × $1 + 200 × $5 + 2000 cache reads × $0.10 + 400 writes × $1.25, per M
    expect(state?.totalCost).toBeCloseTo(0.0027, 10);
    expect(t.of('sentinel.output')[0]).toMatchObject({
      cost: expect.closeTo(0.0027, 10),
      tokens: { input: 3400, output: 200 },
    });
  });

  it('uses an injected catalog, and warns once per sentinel about a model without a price', async () => {
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => warnings.push(message) };
    const mystery = {
      id: 'claude-mystery-1',
      provider: 'anthropic',
      contextWindow: 100_000,
      price: { input: 10, output: 0, cacheWrite: 0, cacheRead: 0 },
    };
    {
      await using t = await setup(narratorScript, { logger });
      await t.manager.loadForCodon({
        codonId: 'observe#0',
        codonName: 'O',
        entries: entries(inline({ model: 'anthropic/claude-mystery-1' })),
      });
      t.manager.observe(action('a', 1));
      t.manager.observe(action('b', 2));
      const [state] = await t.manager.drain();
      expect(state).toMatchObject({ llmCallCount: 2, totalCost: 0 });
      expect(warnings.filter((w) => w.includes('no price'))).toEqual([
        'Sentinel narrator: no price for anthropic/claude-mystery-1',
      ]);
    }
    {
      const models = createModelCatalog([...MODEL_CATALOG, mystery]);
      await using t = await setup(narratorScript, { logger, models });
      await t.manager.loadForCodon({
        codonId: 'observe#0',
        codonName: 'O',
        entries: entries(inline({ model: 'anthropic/claude-mystery-1' })),
      });
      t.manager.observe(action('a', 1));
      const [state] = await t.manager.drain();
      // 1000 input tokens × $10 per M
      expect(state?.totalCost).toBeCloseTo(0.01, 10);
    }
  });
});

describe('unload while events still arrive', () => {
  // The runtime unloads a codon's sentinels while its bus may still deliver events. Once, a
  // sentinel whose drain had already finished took an event while another sentinel's call was
  // still running, and started a call of its own; the unload did not wait for it, and that call's
  // late report replaced the codon's sentinel list with an empty one.
  it('waits for every call it paid for, and reports nothing after the final states', async () => {
    const turn = (marker: string, delayMs: number) => ({
      match: { marker },
      turns: Array.from({ length: 10 }, () => ({
        content: [{ text: `${marker} noted.` }],
        usage: { inputTokens: 1000, outputTokens: 200 },
        delayMs,
      })),
    });
    const reports: SentinelState[][] = [];
    await using t = await setup(
      { conversations: [turn('BUSY', 300), turn('IDLE', 1000)] },
      { onStatesChanged: (states) => reports.push(states) },
    );
    const sentinel = (id: string, marker: string, action: string) =>
      inline({
        id,
        trigger: { type: 'event', on: [action] },
        userPromptText: `${marker} <%= it.events.length %>`,
      });
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'Observe',
      entries: entries(
        sentinel('busy', 'BUSY', 'assistant.action'),
        sentinel('idle', 'IDLE', 'tool.result'),
      ),
    });
    t.manager.observe(action('reading', 1));
    const unloading = t.manager.unload('codon-complete');
    // `idle` has nothing to do when the unload starts; its event comes once `busy`'s call has
    // reached the model, so a call of its own (a slower model) would end after `busy`'s, after
    // the unload.
    while (t.model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    t.manager.observe(event('tool.result', { codonId: 'observe#0', content: 'ok' }, 2));
    const final = await unloading;
    await new Promise((resolve) => setTimeout(resolve, 600));

    const byId = Object.fromEntries(final.map((state) => [state.id, state]));
    expect(Object.keys(byId).sort()).toEqual(['busy', 'idle']);
    const paid = t.model.requests.length;
    const counted = final.reduce((sum, state) => sum + state.llmCallCount, 0);
    expect(counted).toBe(paid);
    expect(final.reduce((sum, state) => sum + state.totalCost, 0)).toBeCloseTo(0.002 * paid, 10);
    for (const state of final) expect(state).toMatchObject({ status: 'unloaded' });
    // The last report is the final states: nothing replaced them afterwards.
    expect(reports.at(-1)).toEqual(final);
  });
});

describe('acknowledge after durable', () => {
  it('emits sentinel.output only after the output and the history are fsynced', async () => {
    const fs = createFaultyFs();
    let traceAtOutput = -1;
    await using t = await setup(
      {
        conversations: [{ match: { marker: 'CHAT' }, turns: [{ content: [{ text: 'heard' }] }] }],
      },
      {
        fs,
        emit: (type) => {
          if (type === 'sentinel.output') traceAtOutput = fs.trace.length;
        },
      },
    );
    const config = inline({
      id: 'chat',
      systemPromptText: 'CHAT',
      userPromptText: 'CHAT <%= it.events.length %>',
      conversational: { trimmingStrategy: { type: 'maxTurns', maxTurns: 3 } },
    });
    const { failed } = await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'O',
      entries: [
        { sentinelConfig: config, settings: { outputPaths: { lastValueFile: 'last.txt' } } },
      ] as unknown as CodonSentinelEntry[],
    });
    expect(failed).toEqual([]);
    fs.clearTrace();
    t.manager.observe(action('x'));
    await t.manager.drain();
    expect(traceAtOutput).toBeGreaterThan(0);
    const before = fs.trace.slice(0, traceAtOutput);
    const outputs = join(t.hankweaveDir, 'sentinels', 'outputs', 'chat');
    const historyDir = join(t.hankweaveDir, 'sentinels', 'history');
    const synced = (match: (path: string) => boolean) =>
      before.some((call) => call.op === 'fsync' && match(call.path));
    expect(synced((path) => path.startsWith(join(outputs, 'chat-observe#0-')))).toBe(true);
    expect(synced((path) => path.startsWith(join(outputs, 'last.txt.')))).toBe(true);
    expect(synced((path) => path === outputs)).toBe(true);
    expect(synced((path) => path.startsWith(join(historyDir, 'chat-codon-observe#0.json.')))).toBe(
      true,
    );
    expect(synced((path) => path === historyDir)).toBe(true);
    expect(fs.trace.slice(traceAtOutput).filter((call) => call.op !== 'close')).toEqual([]);
  });
});

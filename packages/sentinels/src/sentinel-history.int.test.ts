import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import type { CodonSentinelEntry } from '@hankweave/types';
import { sentinelHistoryFileSchema } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { action, inline, setup } from '../test/helpers.js';

const chat = (maxTurns: number) =>
  [
    {
      sentinelConfig: inline({
        id: 'chat',
        systemPromptText: 'CHAT you remember',
        userPromptText: 'event <%= it.events[0].data.content %>',
        conversational: { trimmingStrategy: { type: 'maxTurns', maxTurns } },
      }),
    },
  ] as unknown as CodonSentinelEntry[];

// Turn N answers a request with N assistant messages, so the reply tells how much history was sent.
const script = {
  conversations: [
    {
      match: { marker: 'CHAT' },
      turns: [0, 1, 2, 3].map((n) => ({ content: [{ text: `reply after ${n}` }] })),
    },
  ],
};

describe('conversational history', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'sentinels-history-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const historyFile = (t: { hankweaveDir: string }) =>
    join(t.hankweaveDir, 'sentinels', 'history', 'chat-codon-observe#0.json');

  it('trims to maxTurns, saves the seed format and resumes in a new manager', async () => {
    {
      await using t = await setup(script, {}, { root });
      await t.manager.loadForCodon({ codonId: 'observe#0', codonName: 'O', entries: chat(1) });
      t.manager.observe(action('one', 1));
      t.manager.observe(action('two', 2));
      await t.manager.drain();
      expect(t.of('sentinel.output').map((o) => o.content)).toEqual([
        'reply after 0',
        'reply after 1',
      ]);
      const file = sentinelHistoryFileSchema.parse(
        JSON.parse(await readFile(historyFile(t), 'utf8')),
      );
      expect(file.metadata).toEqual({ trimStrategy: 'maxTurns', maxTurns: 1 });
      expect(file.turns.map((turn) => [turn.role, turn.content])).toEqual([
        ['user', 'event two'],
        ['assistant', 'reply after 1'],
      ]);
    }
    {
      await using t = await setup(script, {}, { root });
      await t.manager.loadForCodon({ codonId: 'observe#0', codonName: 'O', entries: chat(1) });
      t.manager.observe(action('three', 3));
      await t.manager.drain();
      // One remembered pair came back from disk: the scripted model served turn 1.
      expect(t.of('sentinel.output')[0]?.content).toBe('reply after 1');
      const body = t.model.requests[0]?.body as { messages: { content: unknown }[] };
      expect(JSON.stringify(body.messages)).toContain('event two');
    }
  });

  it('keeps the history in memory only with persistHistory: false (enablePersistence)', async () => {
    {
      await using t = await setup(script, { persistHistory: false }, { root });
      await t.manager.loadForCodon({ codonId: 'observe#0', codonName: 'O', entries: chat(2) });
      t.manager.observe(action('one', 1));
      t.manager.observe(action('two', 2));
      await t.manager.drain();
      // The conversation still carries over within the load: the second call sent the first pair.
      expect(t.of('sentinel.output').map((o) => o.content)).toEqual([
        'reply after 0',
        'reply after 1',
      ]);
      await expect(readdir(join(t.hankweaveDir, 'sentinels', 'history'))).rejects.toThrow();
    }
    {
      await using t = await setup(script, { persistHistory: false }, { root });
      await t.manager.loadForCodon({ codonId: 'observe#0', codonName: 'O', entries: chat(2) });
      t.manager.observe(action('three', 3));
      await t.manager.drain();
      // Nothing came back from disk: the request holds no earlier exchange.
      const body = t.model.requests[0]?.body as { messages: { content: unknown }[] };
      expect(JSON.stringify(body.messages)).not.toContain('event two');
    }
  });

  it('starts over when the history file is corrupt, keeping it aside', async () => {
    await using t = await setup(script, {}, { root });
    await writeFile(join(t.hankweaveDir, 'placeholder'), '');
    const path = historyFile(t);
    await rm(path, { force: true });
    await import('node:fs/promises').then((fs) =>
      fs.mkdir(join(t.hankweaveDir, 'sentinels', 'history'), { recursive: true }),
    );
    await writeFile(path, '{"turns": [ {"role": "us');
    await t.manager.loadForCodon({ codonId: 'observe#0', codonName: 'O', entries: chat(3) });
    t.manager.observe(action('one', 1));
    await t.manager.drain();
    expect(t.of('sentinel.output')[0]?.content).toBe('reply after 0');
    const names = await readdir(join(t.hankweaveDir, 'sentinels', 'history'));
    expect(names.some((name) => name.includes('.corrupt-'))).toBe(true);
    expect(
      sentinelHistoryFileSchema.parse(JSON.parse(await readFile(path, 'utf8'))).turns,
    ).toHaveLength(2);
  });
});

describe('isolation', () => {
  it('observe() returns at once with three sentinels whose model takes 2 s; only drain waits', async () => {
    const slowScript = {
      conversations: [{ match: { marker: 'NARRATE' }, turns: [{ content: [{ text: 'slow' }] }] }],
    };
    let baseURL = '';
    await using t = await setup(slowScript, {
      modelFactory: (id) =>
        createAnthropic({
          baseURL,
          apiKey: 'x',
          fetch: async (url, init) => {
            await new Promise((r) => setTimeout(r, 2000));
            return fetch(url, init);
          },
        })(id.replace('anthropic/', '')),
    });
    baseURL = `${t.model.url}/v1`;
    const three = [
      inline({ id: 'a', execution: { strategy: 'count', threshold: 100 } }),
      inline({ id: 'b', execution: { strategy: 'debounce', milliseconds: 50 } }),
      inline({ id: 'c', execution: { strategy: 'count', threshold: 200 } }),
    ].map((sentinelConfig) => ({ sentinelConfig }));
    await t.manager.loadForCodon({
      codonId: 'observe#0',
      codonName: 'O',
      entries: three as unknown as CodonSentinelEntry[],
    });
    const started = performance.now();
    for (let n = 0; n < 200; n++) t.manager.observe(action(`step ${n}`, n));
    const observeMs = performance.now() - started;
    expect(observeMs).toBeLessThan(200);
    const drainStart = performance.now();
    await t.manager.drain();
    expect(performance.now() - drainStart).toBeGreaterThan(1900);
    expect(t.of('sentinel.output')).toHaveLength(4);
  }, 20_000);
});

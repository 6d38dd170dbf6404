import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { sentinelEventData, sentinelStateSchema } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { codon, writes } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// Sentinels on the codons of a parallel block (issue 36), on the real agent with the scripted
// model: each branch codon's sentinels run beside the other branches', see their own codon's
// events only, and keep their outputs, counters and events as outside a block (the events carry
// the branch). A sibling's failure stops a branch whose sentinel is mid-call: the call finishes,
// the sentinel is unloaded onto its codon's record, and nothing runs after the run ends.

/**
 * Sentinel `watch-{id}`: every event of its codon, in calls that list each event as
 * `[type|codonId]`, answered by the conversation with marker `WATCH_{ID}`.
 */
const watcher = (id: string, extra: Record<string, unknown> = {}) => ({
  sentinelConfig: {
    id: `watch-${id}`,
    name: `Watch ${id}`,
    model: 'anthropic/claude-haiku-4-5',
    trigger: { type: 'event', on: ['*'] },
    execution: { strategy: 'debounce', milliseconds: 200 },
    systemPromptText: `WATCH_${id.toUpperCase()}: say what the agent did.`,
    userPromptText:
      "<%= it.events.map((e) => '[' + e.type + '|' + ((e.data && e.data.codonId) || '-') + ']').join(' ') %>",
    ...extra,
  },
});
/** The answer of sentinel `watch-{id}`, after `delayMs`. */
const watching = (id: string, delayMs = 0) => ({
  name: `watch-${id}`,
  match: { marker: `WATCH_${id.toUpperCase()}` },
  turns: [
    {
      content: [{ text: `${id} looks fine` }],
      usage: { inputTokens: 300, outputTokens: 10 },
      ...(delayMs > 0 ? { delayMs } : {}),
    },
  ],
});
const block = (branches: [string, unknown[]][]) => ({
  type: 'parallel',
  id: 'review',
  name: 'Review',
  branches: branches.map(([id, items]) => ({ id, items })),
});
const ofType = <T extends HankweaveEvent['type']>(events: HankweaveEvent[], type: T) =>
  events.filter((event) => event.type === type) as HankweaveEvent<T>[];
const sentinelOf = (event: HankweaveEvent) => (event.data as { sentinelId?: string }).sentinelId;
/** The `[type|codonId]` tags of every call the scripted model got from sentinel `watch-{id}`. */
const seenBy = (world: TestWorld, id: string) =>
  world.model.requests
    .filter((request) => request.match?.conversationName === `watch-${id}`)
    .flatMap((request) => [...JSON.stringify(request.body).matchAll(/\[([\w.]+)\|([\w-]+)\]/g)])
    .map((match) => ({ type: match[1], codonId: match[2] }));
const recordOf = (state: { runs: { codons: Record<string, unknown>[] }[] }, codonId: string) =>
  state.runs.flatMap((run) => run.codons).find((record) => record.codonId === codonId) as
    | { status: string; failureReason?: unknown; sentinels?: Record<string, unknown> }
    | undefined;

describe('sentinels on the codons of a parallel block', () => {
  it("run beside each other, each on its own codon's events, with their own outputs", async () => {
    const world = await makeWorld({
      hank: {
        meta: { name: 'parallel-sentinels', version: '1.0.0' },
        hank: [
          block([
            ['left', [codon('alpha', { sentinels: [watcher('alpha')] })]],
            [
              'right',
              [
                codon('beta', {
                  sentinels: [
                    watcher('beta', {
                      output: { format: 'text', lastValueFile: 'notes/beta.txt' },
                    }),
                  ],
                }),
              ],
            ],
          ]),
        ],
      },
      script: {
        conversations: [
          writes('alpha', 'alpha.txt', 'alpha\n', { delayMs: 1500 }),
          writes('beta', 'beta.txt', 'beta\n', { delayMs: 1500 }),
          watching('alpha'),
          watching('beta'),
        ],
      },
    });
    const { runtime, events } = runtimeFor(world);
    await runtime.start();
    const exit = await runtime.finished;
    await world.close();
    expect(exit.exitCode).toBe(0);

    // Both codons, and both sentinels, were live at once.
    const index = (predicate: (event: HankweaveEvent) => boolean) => events.findIndex(predicate);
    const loaded = ofType(events, 'sentinel.loaded');
    const unloaded = ofType(events, 'sentinel.unloaded');
    expect(loaded.map(sentinelOf).sort()).toEqual(['watch-alpha', 'watch-beta']);
    expect(unloaded.map((event) => [event.data.sentinelId, event.data.reason]).sort()).toEqual([
      ['watch-alpha', 'codon-complete'],
      ['watch-beta', 'codon-complete'],
    ]);
    const firstUnload = index((event) => event.type === 'sentinel.unloaded');
    expect(loaded.every((event) => events.indexOf(event) < firstUnload)).toBe(true);
    expect(
      index((event) => event.type === 'codon.started' && event.data.codonId === 'beta'),
    ).toBeLessThan(
      index((event) => event.type === 'codon.completed' && event.data.codonId === 'alpha'),
    );

    // Every sentinel event is valid and names the branch of the codon its sentinel watches.
    const branchOf = { 'watch-alpha': 'left', 'watch-beta': 'right' } as Record<string, string>;
    const sentinelEvents = events.filter((event) => event.type.startsWith('sentinel.'));
    for (const event of sentinelEvents) {
      const schema = sentinelEventData[event.type as keyof typeof sentinelEventData];
      expect(schema.safeParse(event.data).success, event.type).toBe(true);
      expect((event.data as { branch?: unknown }).branch).toEqual({
        blockId: 'review',
        branchId: branchOf[sentinelOf(event) ?? ''],
      });
    }

    // Each sentinel saw its own codon's events, the agent's included, and none of its sibling's.
    for (const [id, sibling] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      const seen = seenBy(world, id);
      expect(seen).toContainEqual({ type: 'assistant.action', codonId: id });
      expect(seen.filter((tag) => tag.codonId === sibling)).toEqual([]);
      expect(
        ofType(events, 'sentinel.output').some(
          (event) =>
            event.data.sentinelId === `watch-${id}` && event.data.content === `${id} looks fine`,
        ),
      ).toBe(true);
    }

    // Counters and costs on each codon's own record, as outside a block.
    const state = runtime.getState();
    for (const id of ['alpha', 'beta']) {
      const record = recordOf(state, id);
      expect(record?.status).toBe('completed');
      expect(record?.sentinels?.loaded).toBeUndefined();
      const executed = ((record?.sentinels?.executed ?? []) as unknown[]).map((entry) =>
        sentinelStateSchema.parse(entry),
      );
      expect(executed.map((entry) => entry.id)).toEqual([`watch-${id}`]);
      expect(executed[0]).toMatchObject({ status: 'unloaded', failedLLMCalls: 0 });
      expect(executed[0]?.llmCallCount).toBeGreaterThan(0);
      expect(record?.sentinels?.totalCost).toBeGreaterThan(0);
    }

    // Files: the log under .hankweave/sentinels; a path with `/` in the branch's work tree, so it
    // is checkpointed with the branch and merged into agentRoot.
    const outputs = join(runtime.executionDir, '.hankweave', 'sentinels', 'outputs');
    expect(existsSync(join(outputs, 'watch-alpha'))).toBe(true);
    const merged = join(runtime.executionDir, 'agentRoot', 'notes', 'beta.txt');
    expect(readFileSync(merged, 'utf8')).toContain('beta looks fine');
    expect(readFileSync(join(runtime.executionDir, 'agentRoot', 'alpha.txt'), 'utf8')).toBe(
      'alpha\n',
    );
  }, 120_000);

  it('stops a sentinel that is mid-call when a sibling branch fails, recording it', async () => {
    const world = await makeWorld({
      hank: {
        meta: { name: 'parallel-sentinels-failure', version: '1.0.0' },
        hank: [
          block([
            [
              'failing',
              [
                codon('bad', {
                  onFailure: 'abort',
                  // Fails once the test saw the other branch's sentinel call its model.
                  rigSetup: [
                    {
                      type: 'command',
                      command: {
                        run: 'i=0; while [ ! -f "$HOME/go" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; exit 1',
                      },
                    },
                  ],
                }),
              ],
            ],
            [
              'watched',
              [
                codon('busy', {
                  sentinels: [
                    watcher('busy', {
                      trigger: { type: 'event', on: ['assistant.action'] },
                      execution: { strategy: 'immediate' },
                    }),
                  ],
                }),
                codon('never'),
              ],
            ],
          ]),
        ],
      },
      script: {
        conversations: [
          writes('bad'),
          // The agent is still busy when its sibling fails; the sentinel's call is slower still.
          {
            match: { marker: 'TASK_BUSY' },
            turns: [
              {
                content: [{ write: { path: 'busy.txt', content: 'busy\n' } }],
                usage: { inputTokens: 100, outputTokens: 20 },
              },
              {
                content: [{ text: 'Done.' }],
                usage: { inputTokens: 120, outputTokens: 5 },
                delayMs: 20_000,
              },
            ],
          },
          writes('never'),
          watching('busy', 3000),
        ],
      },
    });
    const { runtime, events } = runtimeFor(world);
    await runtime.start();
    const deadline = Date.now() + 60_000;
    while (!world.model.requests.some((r) => r.match?.conversationName === 'watch-busy')) {
      if (Date.now() > deadline) throw new Error('the sentinel never called its model');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    writeFileSync(join(String(world.env.HOME), 'go'), '');
    const exit = await runtime.finished;
    const settledCount = events.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await world.close();

    expect(exit.reason).toBe('codon failure');
    // Nothing more happens after the run ended: no sentinel is left running.
    expect(events.length).toBe(settledCount);
    const state = runtime.getState();
    expect(recordOf(state, 'bad')?.status).toBe('failed');
    const busy = recordOf(state, 'busy');
    expect(busy).toMatchObject({ status: 'failed', failureReason: { interrupted: true } });
    expect(recordOf(state, 'never')).toBeUndefined();
    // The call in flight finished (its output is kept), then the sentinel was unloaded onto its
    // codon's record before that codon ended.
    const executed = ((busy?.sentinels?.executed ?? []) as unknown[]).map((entry) =>
      sentinelStateSchema.parse(entry),
    );
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ id: 'watch-busy', status: 'unloaded', failedLLMCalls: 0 });
    expect(busy?.sentinels?.totalCost).toBeGreaterThan(0);
    const mine = events.filter((event) => sentinelOf(event) === 'watch-busy');
    const types = mine.map((event) => event.type);
    expect(types[0]).toBe('sentinel.loaded');
    expect(types.at(-1)).toBe('sentinel.unloaded');
    expect(types.filter((type) => type === 'sentinel.output')).toHaveLength(
      executed[0]?.llmCallCount ?? -1,
    );
    expect(types).not.toContain('sentinel.error');
    for (const event of mine) {
      expect((event.data as { branch?: unknown }).branch).toEqual({
        blockId: 'review',
        branchId: 'watched',
      });
    }
    expect(events.indexOf(mine.at(-1) as HankweaveEvent)).toBeLessThan(
      events.findIndex(
        (event) => event.type === 'codon.completed' && event.data.codonId === 'busy',
      ),
    );
  }, 120_000);
});

// Isolation bench: how long a codon's worth of events takes to go through observe() with three
// sentinels whose model answers in 2 s, as a ratio to the same feed with no sentinels loaded.
// Run: pnpm bench (builds first). Not part of `pnpm test`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAnthropic } from '@ai-sdk/anthropic';
import { startScriptedModel } from '@hankweave/scripted-model';
import { SentinelManager } from '../dist/index.js';

const EVENTS = 500;
const ROUNDS = 7;
const root = await mkdtemp(join(tmpdir(), 'sentinels-bench-'));
const model = await startScriptedModel({
  script: {
    conversations: [{ match: { marker: 'BENCH' }, turns: [{ content: [{ text: 'ok' }] }] }],
  },
});
const slow = (id) =>
  createAnthropic({
    baseURL: `${model.url}/v1`,
    apiKey: 'x',
    fetch: async (url, init) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return fetch(url, init);
    },
  })(id.replace('anthropic/', ''));

const events = Array.from({ length: EVENTS }, (_, n) => ({
  id: `evt_${n}`,
  type: n % 2 ? 'tool.result' : 'assistant.action',
  timestamp: new Date().toISOString(),
  data: {
    codonId: 'bench#0',
    action: 'message',
    content: `step ${n}`,
    toolName: 'Bash',
    isError: n % 50 === 1,
  },
}));
events.push({
  id: 'evt_end',
  type: 'codon.completed',
  timestamp: new Date().toISOString(),
  data: { codonId: 'bench#0', success: true },
});

const base = (extra) => ({
  model: 'anthropic/claude-haiku-4-5',
  userPromptText: 'BENCH <%= it.events.length %>',
  llmParams: { maxRetries: 0 },
  ...extra,
});
const sentinels = [
  base({
    id: 'narrator',
    name: 'Narrator',
    trigger: { type: 'event', on: ['assistant.action'] },
    execution: { strategy: 'debounce', milliseconds: 500 },
  }),
  base({
    id: 'reviewer',
    name: 'Reviewer',
    trigger: {
      type: 'event',
      on: ['tool.result'],
      conditions: [{ path: 'isError', operator: 'equals', value: true }],
    },
    execution: { strategy: 'count', threshold: 5 },
  }),
  base({
    id: 'closer',
    name: 'Closer',
    trigger: { type: 'event', on: ['codon.completed'] },
    execution: { strategy: 'immediate' },
  }),
].map((sentinelConfig) => ({ sentinelConfig }));

async function feed(entries) {
  const manager = new SentinelManager({
    hankDir: root,
    hankweaveDir: join(root, 'exec', '.hankweave'),
    agentRoot: join(root, 'exec', 'agentRoot'),
    emit: () => {},
    modelFactory: slow,
  });
  await manager.loadForCodon({ codonId: 'bench#0', codonName: 'Bench', entries });
  const start = performance.now();
  for (const event of events) manager.observe(event);
  const observeMs = performance.now() - start;
  const drainStart = performance.now();
  await manager.unload('codon-complete');
  return { observeMs, drainMs: performance.now() - drainStart };
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const withOut = [];
const withIn = [];
const drains = [];
for (let round = 0; round < ROUNDS; round++) {
  withOut.push((await feed([])).observeMs);
  const run = await feed(sentinels);
  withIn.push(run.observeMs);
  drains.push(run.drainMs);
}
const a = median(withOut);
const b = median(withIn);
console.log(`events per feed:            ${events.length}`);
console.log(`observe(), no sentinels:    ${a.toFixed(3)} ms (median of ${ROUNDS})`);
console.log(`observe(), 3 sentinels:     ${b.toFixed(3)} ms (model answers in 2 s)`);
console.log(
  `ratio:                      ${(b / a).toFixed(1)}x (absolute extra ${(b - a).toFixed(3)} ms)`,
);
console.log(`final drain (unload):       ${median(drains).toFixed(0)} ms`);
await model.close();
await rm(root, { recursive: true, force: true });

// Sentinels never slow a run (issue 12): the same 5-codon hank with and without three sentinels
// whose model answers in 2 s. Measured per codon: the time the codon is active until its agent is
// done (CodonStarted → completing-sentinels, or → the terminal state without sentinels), and the
// final drain separately. The agent is FakeHarness (20 ms per line); the sentinels' model is the
// scripted model behind a loopback proxy that waits 2 s before each answer.
// Run: pnpm --filter @hankweave/runtime exec node bench/sentinel-isolation.bench.mjs

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FakeHarness } from '@hankweave/harness/testing';
import { startScriptedModel } from '@hankweave/scripted-model';
import { createRuntime } from '../dist/index.js';
import { pacedProxy } from './paced-proxy.mjs';

const CODONS = 5;
const model = await startScriptedModel({
  script: {
    conversations: [
      { match: { marker: 'SENTINEL_BENCH' }, turns: [{ content: [{ text: 'noted' }] }] },
    ],
  },
});
const proxy = await pacedProxy(model.url, 2000);
const proxyUrl = proxy.url;

const sentinel = (id, trigger, execution) => ({
  sentinelConfig: {
    id,
    name: id,
    model: 'anthropic/claude-haiku-4-5',
    trigger,
    execution,
    systemPromptText: 'SENTINEL_BENCH',
    userPromptText: '<%= it.events.length %> events',
    llmParams: { maxRetries: 0 },
  },
});
const sentinels = [
  sentinel(
    'narrator',
    { type: 'event', on: ['assistant.action'] },
    { strategy: 'debounce', milliseconds: 100 },
  ),
  sentinel('reviewer', { type: 'event', on: ['*'] }, { strategy: 'count', threshold: 5 }),
  sentinel('watcher', { type: 'event', on: ['tool.result'] }, { strategy: 'immediate' }),
];

async function run(withSentinels) {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-bench-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data/in.txt'), 'x');
  const hank = {
    meta: { name: 'bench', version: '1.0.0' },
    hank: Array.from({ length: CODONS }, (_, index) => ({
      id: `c${index}`,
      name: `C${index}`,
      model: 'sonnet',
      continuationMode: 'fresh',
      promptText: 'go',
      ...(withSentinels ? { sentinels } : {}),
    })),
  };
  const turns = Array.from({ length: 6 }, (_, n) =>
    n % 2 ? { toolUse: { name: 'Bash', input: { command: 'true' } } } : { text: `step ${n}` },
  );
  const runtime = createRuntime({
    hank,
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    harness: new FakeHarness({ script: { scenario: { turns } }, lineDelayMs: 20 }),
    env: { ...process.env, ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: proxyUrl },
  });
  const started = new Map();
  const active = [];
  const drains = [];
  let drainStart;
  runtime.on((event) => {
    if (event.type !== 'state.transition') return;
    const { transitionType, codonId, transition } = event.data;
    const now = performance.now();
    if (transitionType === 'CodonStarted') started.set(codonId, now);
    if (transitionType === 'CodonTransitioned') {
      const to = transition.data.to;
      if (to === 'completing-sentinels') {
        active.push(now - started.get(codonId));
        drainStart = now;
      } else if (['completed', 'failed', 'skipped'].includes(to)) {
        if (drainStart === undefined) active.push(now - started.get(codonId));
        else drains.push(now - drainStart);
        drainStart = undefined;
      }
    }
  });
  await runtime.start();
  const exit = await runtime.finished;
  rmSync(root, { recursive: true, force: true });
  if (exit.exitCode !== 0) throw new Error(`bench run failed: ${JSON.stringify(exit)}`);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { active: median(active), drain: median(drains) };
}

const without = await run(false);
const withThree = await run(true);
console.log(
  `\nSentinel isolation: ${CODONS} codons, three sentinels on a 2 s model (medians per codon)`,
);
console.log(
  `codon active time without sentinels (baseline)     ${without.active.toFixed(0).padStart(6)} ms  1.00×`,
);
console.log(
  `codon active time with three sentinels             ${withThree.active.toFixed(0).padStart(6)} ms  ${(withThree.active / without.active).toFixed(2)}×`,
);
console.log(
  `final drain per codon (completing-sentinels)        ${withThree.drain.toFixed(0).padStart(6)} ms`,
);
await proxy.close();
await model.close();

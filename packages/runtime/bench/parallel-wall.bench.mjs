// Parallel blocks pay for themselves (issue 36, target <= 1.3x): a block of three branches whose
// codons each wait 2 s on the model, against one branch's codons alone, on the real Claude Code
// with the scripted model, alternated RUNS times. Measured: the wall time from the block's first
// CodonStarted to its merge record (the block), against the same span of the one-branch hank
// (its codons in a row, no block: what running one branch costs). Each branch is two codons.
// Run: pnpm --filter @hankweave/runtime bench (after a build), or
//      node packages/runtime/bench/parallel-wall.bench.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startScriptedModel } from '@hankweave/scripted-model';
import { createRuntime } from '../dist/index.js';
import { agentEnvOf } from './agent-env.mjs';

const RUNS = Number(process.env.PARALLEL_BENCH_RUNS ?? 3);
const MODEL_WAIT_MS = 2000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const root = mkdtempSync(join(tmpdir(), 'parallel-bench-'));
mkdirSync(join(root, 'data'));
writeFileSync(join(root, 'data', 'input.txt'), 'input');
const home = join(root, 'home');
mkdirSync(home);
const codon = (id) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `BENCH_${id.toUpperCase()}: write a note.`,
  checkpointedFiles: ['**/*.txt'],
});
const BRANCHES = ['a', 'b', 'c'];
const parallel = {
  meta: { name: 'parallel-bench', version: '1.0.0' },
  hank: [
    {
      type: 'parallel',
      id: 'block',
      name: 'Block',
      branches: BRANCHES.map((branch) => ({
        id: `on-${branch}`,
        items: [codon(`${branch}1`), codon(`${branch}2`)],
      })),
    },
  ],
};
const single = {
  meta: { name: 'single-bench', version: '1.0.0' },
  hank: [codon('a1'), codon('a2')],
};
const model = await startScriptedModel({
  script: {
    conversations: BRANCHES.flatMap((branch) =>
      [1, 2].map((n) => ({
        match: { marker: `BENCH_${branch.toUpperCase()}${n}` },
        turns: [
          {
            content: [{ write: { path: `${branch}${n}.txt`, content: 'note\n' } }],
            delayMs: MODEL_WAIT_MS,
          },
          { content: [{ text: 'Done.' }] },
        ],
      })),
    ),
  },
});
const env = agentEnvOf(home);

async function runOnce(hank) {
  let first;
  let last;
  const runtime = createRuntime({
    hank,
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    startNew: true,
    anthropicBaseUrl: model.url,
    env,
    headless: true,
  });
  runtime.on((event) => {
    if (event.type !== 'state.transition') return;
    const now = performance.now();
    if (event.data.transitionType === 'CodonStarted') first ??= now;
    if (event.data.transitionType === 'CodonTransitioned') last = now;
  });
  await runtime.start();
  const exit = await runtime.finished;
  if (exit.exitCode !== 0) throw new Error(`bench run failed: ${exit.reason}`);
  return last - first;
}

const results = { parallel: [], single: [] };
await runOnce(single); // warm-up: the agent binary into the page cache
for (let index = 0; index < RUNS; index++) {
  for (const kind of index % 2 === 0 ? ['parallel', 'single'] : ['single', 'parallel'])
    results[kind].push(await runOnce(kind === 'parallel' ? parallel : single));
}
await model.close();
rmSync(root, { recursive: true, force: true });

const p = median(results.parallel);
const s = median(results.single);
console.log(
  `parallel block, 3 branches x 2 codons, each waiting ${MODEL_WAIT_MS} ms on the model, real Claude Code, ${RUNS} alternated runs`,
);
console.log(
  `  one branch alone (baseline): median ${(s / 1000).toFixed(2)} s  [${results.single.map((v) => (v / 1000).toFixed(2)).join(', ')}]`,
);
console.log(
  `  three branches in a block:   median ${(p / 1000).toFixed(2)} s  [${results.parallel.map((v) => (v / 1000).toFixed(2)).join(', ')}]`,
);
console.log(`  ratio ${(p / s).toFixed(2)}x (target <= 1.3x)`);

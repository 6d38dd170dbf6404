// What the OS sandbox adds to a codon's start (issue 31, target <= 150 ms). The same one-codon
// hank runs on the real Claude Code against the scripted model, alternately in the sandbox
// (`sandbox: 'require'`) and without it (`sandbox: 'off'`), RUNS times each; per run it measures
// the time from CodonStarted to `codon.started` (the agent process is up and has
// read its prompt: everything the sandbox adds happens before it), and the codon's whole time.
// Baseline in the same run: the same codon unsandboxed. A micro figure beside it: spawning
// `/bin/true` directly against spawning it in a sandbox with the codon's mounts.
// Run: pnpm --filter @hankweave/runtime bench (after a build), or
//      node packages/runtime/bench/sandbox-start.bench.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { detectSandbox, sandboxCommand } from '@hankweave/harness';
import { startScriptedModel } from '@hankweave/scripted-model';
import { createRuntime } from '../dist/index.js';
import { agentEnvOf } from './agent-env.mjs';

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 7);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const found = await detectSandbox();
if (!found.available) throw new Error(`No sandbox to measure: ${found.reason}; ${found.hint}`);

const root = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
mkdirSync(join(root, 'data'));
writeFileSync(join(root, 'data', 'input.txt'), 'input');
const home = join(root, 'home');
mkdirSync(home);
const hank = {
  meta: { name: 'sandbox-bench', version: '1.0.0' },
  hank: [
    {
      id: 'work',
      name: 'Work',
      model: 'sonnet',
      continuationMode: 'fresh',
      promptText: 'BENCH_WORK: write a note.',
      rigSetup: [{ type: 'command', command: { run: 'echo rig > rig.txt' } }],
    },
  ],
};
const model = await startScriptedModel({
  script: {
    conversations: [
      {
        match: { marker: 'BENCH_WORK' },
        turns: [{ content: [{ bash: 'echo hi > note.txt' }] }, { content: [{ text: 'Done.' }] }],
      },
    ],
  },
});
const env = agentEnvOf(home);

async function runOnce(sandbox) {
  const marks = {};
  const runtime = createRuntime({
    hank,
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    startNew: true,
    anthropicBaseUrl: model.url,
    env,
    headless: true,
    sandbox,
  });
  runtime.on((event) => {
    const now = performance.now();
    if (event.type === 'state.transition' && event.data.transitionType === 'CodonStarted')
      marks.started = now;
    // The agent reported its session: it runs and has read its prompt.
    if (event.type === 'codon.started' && marks.session === undefined) marks.session = now;
    if (event.type === 'codon.completed') marks.completed = now;
  });
  await runtime.start();
  const exit = await runtime.finished;
  if (exit.exitCode !== 0) throw new Error(`bench run (${sandbox}) failed: ${exit.reason}`);
  return {
    start: marks.session - marks.started,
    codon: marks.completed - marks.started,
  };
}

const results = { require: [], off: [] };
await runOnce('off'); // warm-up: the agent binary into the page cache
for (let index = 0; index < RUNS; index++) {
  for (const sandbox of index % 2 === 0 ? ['require', 'off'] : ['off', 'require'])
    results[sandbox].push(await runOnce(sandbox));
}
await model.close();

// Micro: one process start, directly and in the sandbox (same mounts as a codon).
const policy = {
  bubblewrap: found.path,
  writable: [join(root, 'data')],
  readOnly: [],
  readable: [root, home],
};
const wrapped = sandboxCommand(policy, { command: '/bin/true', args: [], cwd: root, env: {} });
const spawnTimes = (command, args) => {
  const times = [];
  for (let index = 0; index < 30; index++) {
    const started = performance.now();
    spawnSync(command, args, { stdio: 'ignore' });
    times.push(performance.now() - started);
  }
  return median(times);
};
const bare = spawnTimes('/bin/true', []);
const boxed = spawnTimes(wrapped.command, wrapped.args);
rmSync(root, { recursive: true, force: true });

// Pairs (run i sandboxed, run i not) taken back to back: the median of their differences and
// ratios is steadier than the difference of two medians on a machine whose speed drifts.
const paired = (field) =>
  results.require.map((run, index) => [run[field], results.off[index][field]]);
const stats = (pairs) => ({
  on: median(pairs.map(([on]) => on)),
  off: median(pairs.map(([, off]) => off)),
  added: median(pairs.map(([on, off]) => on - off)),
  ratio: median(pairs.map(([on, off]) => on / off)),
});
const start = stats(paired('start'));
const codon = stats(paired('codon'));
console.log(
  `\nSandbox (bubblewrap ${found.version ?? '?'}): one codon on the real Claude Code and the scripted model, ${RUNS} runs each, alternated; medians`,
);
const row = (name, { on, off, added, ratio }) =>
  console.log(
    `${name.padEnd(46)} ${on.toFixed(0).padStart(6)} ms vs ${off.toFixed(0).padStart(6)} ms unsandboxed; added ${added.toFixed(0)} ms, ${ratio.toFixed(2)}× (median of pairs)`,
  );
row('codon start (CodonStarted -> codon.started)', start);
row('whole codon (rig command, agent, checkpoint)', codon);
row('one process start (/bin/true)', {
  on: boxed,
  off: bare,
  added: boxed - bare,
  ratio: boxed / bare,
});

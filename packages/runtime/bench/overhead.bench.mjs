// Runtime overhead per codon, the agent's own time excluded: a 20-codon hank on FakeHarness (no
// process, no network), with 200 tracked files. Baseline in the same run: one native
// `git add -A && git commit` of the same work tree (what a checkpoint costs git).
// Run: pnpm --filter @hankweave/runtime bench
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckpointEngine } from '@hankweave/checkpoints';
import { FakeHarness } from '@hankweave/harness/testing';
import { StateStore } from '@hankweave/state';
import { createRuntime } from '../dist/index.js';

const CODONS = 20;
const FILES = 200;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const root = mkdtempSync(join(tmpdir(), 'runtime-bench-'));
mkdirSync(join(root, 'templates/docs'), { recursive: true });
for (let index = 0; index < FILES; index++)
  writeFileSync(
    join(root, 'templates/docs', `file-${index}.md`),
    `# File ${index}\n${'text '.repeat(200)}\n`,
  );
mkdirSync(join(root, 'data'));
writeFileSync(join(root, 'data/input.txt'), 'input');
const hank = {
  meta: { name: 'bench', version: '1.0.0' },
  hank: Array.from({ length: CODONS }, (_, index) => ({
    id: `c${index}`,
    name: `Codon ${index}`,
    model: 'sonnet',
    continuationMode: 'fresh',
    promptText: `Step ${index}`,
    checkpointedFiles: ['docs/**/*.md'],
    ...(index === 0
      ? { rigSetup: [{ type: 'copy', copy: { from: 'templates/docs', to: 'docs' } }] }
      : {}),
  })),
};

// Wraps the fake agent to measure its own time: from start() to its outcome.
const agentTime = new Map();
const fake = new FakeHarness({
  script: {
    scenario: {
      turns: [
        { text: 'working' },
        { toolUse: { name: 'Write', input: { file_path: 'docs/file-0.md' } } },
        { text: 'done' },
      ],
    },
  },
});
const harness = {
  name: 'timed-fake',
  async start(options) {
    const started = performance.now();
    const session = await fake.start(options);
    void session.outcome.then(() => agentTime.set(options.codonId, performance.now() - started));
    return session;
  },
};
const codonStart = new Map();
let eventCount = 0;
const codonWall = new Map();
const runtime = createRuntime({
  hank,
  hankDir: root,
  dataPath: join(root, 'data'),
  executionBaseDir: join(root, 'executions'),
  harness,
});
runtime.on((event) => {
  eventCount++;
  if (event.type === 'state.transition' && event.data.transitionType === 'CodonStarted')
    codonStart.set(event.data.codonId, performance.now());
  if (event.type === 'codon.completed')
    codonWall.set(event.data.codonId, performance.now() - codonStart.get(event.data.codonId));
});
// Measured from outside through the public classes the runtime composes (the workspace links one
// copy of each): the time of every checkpoint, and the state store the run opens.
let checkpointMs = 0;
// Counted from the end of start(), as before: the codons' checkpoints, not the execution's first.
let measuring = false;
const checkpoint = CheckpointEngine.prototype.checkpoint;
CheckpointEngine.prototype.checkpoint = async function (input) {
  if (!measuring) return checkpoint.call(this, input);
  const started = performance.now();
  try {
    return await checkpoint.call(this, input);
  } finally {
    checkpointMs += performance.now() - started;
  }
};
let store;
const openStore = StateStore.open;
StateStore.open = async (...args) => {
  store = await openStore.apply(StateStore, args);
  return store;
};
await runtime.start();
measuring = true;
const exit = await runtime.finished;
if (exit.exitCode !== 0) throw new Error(`bench run failed: ${JSON.stringify(exit)}`);

const overheads = [...codonWall]
  .filter(([id]) => id !== 'c0')
  .map(([id, wall]) => wall - (agentTime.get(id) ?? 0));
const overhead = median(overheads);

// Baseline: native git committing the same work tree, once per codon.
const gitTree = join(root, 'git-tree');
cpSync(join(runtime.executionDir, 'agentRoot/docs'), join(gitTree, 'docs'), { recursive: true });
const git = (...args) =>
  execFileSync('git', ['-c', 'gc.auto=0', '-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {
    cwd: gitTree,
    stdio: 'pipe',
  });
git('init', '-q');
git('add', '-A');
git('commit', '-qm', 'first');
const gitTimes = [];
for (let index = 0; index < CODONS; index++) {
  writeFileSync(join(gitTree, 'docs/file-0.md'), `changed ${index}\n`);
  const started = performance.now();
  git('add', '-A');
  git('commit', '-qm', `step ${index}`);
  gitTimes.push(performance.now() - started);
}
const gitCommit = median(gitTimes);
const perCodonCheckpoint = checkpointMs / CODONS;
const state = store.stats();
const rows = [
  ['runtime overhead per codon (median, agent excluded)', overhead, overhead / gitCommit],
  ['  of which: the checkpoint (mean)', perCodonCheckpoint, perCodonCheckpoint / gitCommit],
  ['native git add -A && commit (baseline, median)', gitCommit, 1],
];
console.log(
  `\nRuntime overhead: ${CODONS} codons, ${FILES} tracked files; ratios to one native git commit of the same tree`,
);
for (const [name, ms, ratio] of rows)
  console.log(`${name.padEnd(54)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}×`);
console.log(
  `where else it goes: ${Math.round(eventCount / CODONS)} journaled events per codon (every tracked file is announced at codon start), ${(state.applied / CODONS).toFixed(0)} state transitions per codon coalesced into ${(state.writes / CODONS).toFixed(1)} durable saves`,
);
rmSync(root, { recursive: true, force: true });

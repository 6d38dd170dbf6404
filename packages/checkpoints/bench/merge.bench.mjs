// Merge of parallel branches (issue 36): engine merge() + commitMerge() + restore() into agentRoot
// against native `git merge` of the same three branches (an octopus, which also updates the work
// tree), on identical trees in the same run. See BENCHMARKS.md.
// Usage: node bench/merge.bench.mjs [--files 1000] [--unchanged 300] [--runs 5] [--out file.md]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CheckpointEngine } from '../dist/index.js';
import { NativeGit } from './native-git.mjs';
import { prng, text } from './tree.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const perBranch = Number(option('files', '1000'));
const unchanged = Number(option('unchanged', '300'));
const runs = Number(option('runs', '5'));
const out = option('out', undefined);
const BRANCHES = ['b1', 'b2', 'b3'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Branch k owns files i with i % 3 === k, so the three branches change files in the same
// directories (~10 per directory): the merge must descend into every directory, not just take
// whole subtrees. Per branch: 80% modified, 10% added, 10% deleted.
const path = (i) => `src/m${Math.floor(i / 100)}/d${Math.floor(i / 10) % 10}/f${i}.txt`;
const total = perBranch * 3 + unchanged;

function writeBase(root) {
  const random = prng(7);
  const files = [];
  for (let i = 0; i < total; i++) {
    const file = path(i);
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text(random, 1024 + Math.floor(random() * 4096)));
    files.push(file);
  }
  return files;
}

/** Applies branch k's changes under root; returns its tracked list. */
function writeBranch(root, k, base) {
  const random = prng(100 + k);
  const tracked = new Set(base);
  const owned = [];
  for (let i = k; i < perBranch * 3; i += 3) owned.push(i);
  owned.forEach((i, n) => {
    const file = path(i);
    if (n % 10 === 8) {
      unlinkSync(join(root, file));
      tracked.delete(file);
    } else if (n % 10 === 9) {
      const added = file.replace('.txt', `.added-${k}.txt`);
      writeFileSync(join(root, added), text(random, 2048));
      tracked.add(added);
    } else writeFileSync(join(root, file), text(random, 256), { flag: 'a' });
  });
  return [...tracked].sort();
}

const input = (files, runId) => ({
  type: 'completed',
  codonId: `c-${runId}`,
  codonName: 'Bench branch',
  runId,
  durationMs: 1,
  files,
});

const dir = mkdtempSync(join(tmpdir(), 'hankweave-merge-bench-'));
const results = { engine: [], git: [], merge: [], commit: [], restore: [] };
const lines = [
  `Node ${process.version}, ${os.cpus().length} CPUs, load average at start: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
];
try {
  // Engine: base checkpoint, then each branch from the base on its own run branch.
  const exec = join(dir, 'engine');
  const root = join(exec, 'agentRoot');
  const files = writeBase(root);
  const engine = await CheckpointEngine.open({ executionDir: exec });
  const base = await engine.checkpoint(input(files, 'base'));
  const tips = [];
  for (const [k, name] of BRANCHES.entries()) {
    await engine.restore(base.sha);
    tips.push((await engine.checkpoint(input(writeBranch(root, k, files), name))).sha);
  }

  // Native git: the same commits in a plain repository with its own work tree.
  const wt = join(dir, 'native', 'wt');
  mkdirSync(wt, { recursive: true });
  const git = new NativeGit(join(dir, 'native', 'git'), wt, join(dir, 'native', 'home'));
  git.init();
  writeBase(wt);
  git.checkpoint('base');
  const gitBase = git.head();
  for (const [k, name] of BRANCHES.entries()) {
    git.git('checkout', '-q', '-f', '-B', name, gitBase);
    writeBranch(wt, k, files);
    git.checkpoint(name);
  }

  for (let run = 0; run < runs; run++) {
    // Both start from the base, settled: files older than the index, stat caches fresh.
    await engine.restore(base.sha);
    git.git('checkout', '-q', '-f', '--detach', gitBase);
    await sleep(1100);
    await engine.restore(base.sha);
    git.git('update-index', '-q', '--refresh');

    const order = run % 2 ? ['git', 'engine'] : ['engine', 'git'];
    for (const who of order) {
      if (who === 'git') {
        const start = performance.now();
        const merged = spawnSync(
          'git',
          ['-c', 'gc.auto=0', 'merge', '-q', '--no-edit', '--no-stat', ...BRANCHES],
          { cwd: wt, env: git.env, encoding: 'utf8' },
        );
        results.git.push(performance.now() - start);
        if (merged.status !== 0) throw new Error(`git merge: ${merged.stderr}`);
        if (git.git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length !== 4)
          throw new Error('git did not make an octopus merge');
      } else {
        const t0 = performance.now();
        const result = await engine.merge({
          base: base.sha,
          branches: BRANCHES.map((name) => ({ name, ref: `run-${name}` })),
          policy: 'fail',
        });
        const t1 = performance.now();
        if (!result.ok) throw new Error('the engine found conflicts');
        const commit = await engine.commitMerge({
          tree: result.tree,
          parents: tips,
          runId: `merged-${run}`,
          codonId: 'join',
          codonName: 'Join',
          durationMs: 1,
        });
        const t2 = performance.now();
        const restored = await engine.restore(commit.sha);
        const t3 = performance.now();
        results.engine.push(t3 - t0);
        results.merge.push(t1 - t0);
        results.commit.push(t2 - t1);
        results.restore.push(t3 - t2);
        if (restored.written.length + restored.deleted.length !== perBranch * 3)
          throw new Error(
            `restore touched ${restored.written.length} + ${restored.deleted.length}`,
          );
      }
    }
  }
  // Same result: the engine's merged tree is git's octopus tree.
  const ours = (await engine.list())[0];
  const theirs = git.git('rev-parse', 'HEAD^{tree}').trim();
  const ourTree = spawnSync('git', ['rev-parse', `${ours.sha}^{tree}`], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      GIT_DIR: engine.gitDir,
      GIT_WORK_TREE: root,
      HOME: dir,
    },
    encoding: 'utf8',
  }).stdout.trim();
  if (ourTree !== theirs) throw new Error(`trees differ: engine ${ourTree}, git ${theirs}`);
  await engine.close();

  const fmt = (ms) => `${ms.toFixed(1)} ms`;
  const g = median(results.git);
  lines.push(
    `\n### 3 branches × ${perBranch} changed files, ${unchanged} unchanged (${total} in the base; medians of ${runs} runs)\n`,
    '| step | native `git merge` (octopus) | engine merge + commitMerge + restore | ratio |',
    '|---|---|---|---|',
    `| merge into the work tree | ${fmt(g)} | ${fmt(median(results.engine))} | ${(median(results.engine) / g).toFixed(2)}× |`,
    `\nEngine breakdown (medians): merge() ${fmt(median(results.merge))}, commitMerge() ${fmt(median(results.commit))}, restore() ${fmt(median(results.restore))}. Trees identical to git's.`,
  );
  console.log(lines.join('\n'));
  if (out) writeFileSync(out, `${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

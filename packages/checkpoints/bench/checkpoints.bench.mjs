// pnpm bench: the engine (dist/) against native git on the same work tree. See BENCHMARKS.md.
// Usage: node bench/checkpoints.bench.mjs [--sizes 1000,10000] [--runs 5] [--initial-runs N]
//   [--scale 1] [--branches 10] [--dist dir] [--out file.md]
// --scale multiplies every generated file's size (0.1: a 250k tree of ~330 MB instead of
// ~3.3 GB); --branches sets how many extra branches the list/resolve steps build (each costs 8
// checkpoints of every contender); --dist benchmarks another build of the engine (a directory
// holding its index.js, relative to the working directory).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NativeGit } from './native-git.mjs';
import { generateTree, mutate } from './tree.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const sizes = option('sizes', '1000,10000').split(',').map(Number);
const runs = Number(option('runs', '5'));
const initialRuns = Number(option('initial-runs', String(runs)));
const out = option('out', undefined);
const scale = Number(option('scale', '1'));
const branches = Number(option('branches', '10'));
const dist = option('dist', undefined);
const engineUrl = dist
  ? pathToFileURL(join(resolve(dist), 'index.js')).href
  : new URL('../dist/index.js', import.meta.url).href;
const { CheckpointEngine } = await import(engineUrl);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

/** Three contenders on one work tree: engine without hint, engine with hint, native git. */
async function setup(base, tracked) {
  rmSync(join(base, 'a', '.hankweave'), { recursive: true, force: true });
  rmSync(join(base, 'b'), { recursive: true, force: true });
  rmSync(join(base, 'native'), { recursive: true, force: true });
  const git = new NativeGit(
    join(base, 'native', 'git'),
    join(base, 'a', 'agentRoot'),
    join(base, 'native', 'home'),
  );
  const a = await CheckpointEngine.open({ executionDir: join(base, 'a') });
  // Engine B checks out A's agentRoot as a branch work tree of its own repository: same files,
  // its own objects, index and stat cache (a symlinked agentRoot is refused since issue 31).
  await (await CheckpointEngine.open({ executionDir: join(base, 'b') })).close();
  const b = await CheckpointEngine.open({
    executionDir: join(base, 'b'),
    worktree: { name: 'bench', workTree: join(base, 'a', 'agentRoot') },
  });
  git.init();
  return { a, b, git, tracked };
}

let codon = 0;
const input = (files, runId, changed) => ({
  type: 'completed',
  codonId: `c${codon++}`,
  codonName: 'Bench codon',
  runId,
  durationMs: 1,
  files,
  changed,
});

async function benchSize(count) {
  const base = mkdtempSync(join(tmpdir(), `hankweave-bench-${count}-`));
  const root = join(base, 'a', 'agentRoot');
  const results = {};
  const record = (step, who, ms) => {
    results[step] ??= { a: [], b: [], git: [] };
    results[step][who].push(ms);
  };
  try {
    const state = generateTree(root, count, 42, scale);
    let ctx;
    // First checkpoint: fresh repositories each run; the engine with and without hint are the
    // same code path here (nothing is cached), so B is measured once per run too.
    for (let run = 0; run < initialRuns; run++) {
      ctx?.a.close();
      ctx?.b.close();
      ctx = await setup(base, state.tracked);
      const order = run % 2 ? ['git', 'a', 'b'] : ['a', 'b', 'git'];
      for (const who of order) {
        if (who === 'git')
          record('initial', 'git', await time(() => ctx.git.checkpoint('initial')));
        else
          record(
            'initial',
            who,
            await time(() => ctx[who].checkpoint(input(state.tracked, 'r0', []))),
          );
      }
    }
    const first = { a: (await ctx.a.head()).sha, b: (await ctx.b.head()).sha, git: ctx.git.head() };
    const rotate = (run) =>
      [
        ['a', 'b', 'git'],
        ['git', 'a', 'b'],
        ['b', 'git', 'a'],
      ][run % 3];

    for (let run = 0; run < runs; run++) {
      const changed = mutate(root, state);
      for (const who of rotate(run)) {
        if (who === 'git')
          record('incremental', 'git', await time(() => ctx.git.checkpoint('inc')));
        else
          record(
            'incremental',
            who,
            await time(() =>
              ctx[who].checkpoint(input(state.tracked, 'r0', who === 'b' ? changed : undefined)),
            ),
          );
      }
    }
    for (let run = 0; run < runs; run++) {
      for (const who of rotate(run)) {
        if (who === 'git') record('no-change', 'git', await time(() => ctx.git.checkpoint('same')));
        else
          record(
            'no-change',
            who,
            await time(() =>
              ctx[who].checkpoint(input(state.tracked, 'r0', who === 'b' ? [] : undefined)),
            ),
          );
      }
    }
    const last = { a: (await ctx.a.head()).sha, b: (await ctx.b.head()).sha, git: ctx.git.head() };
    // Restore: each contender goes to the first checkpoint (timed) and back (untimed), so all
    // start from the same files. Going back rewrites ~30 files, so the next contender's stat
    // cache has ~30 stale entries: the same for all three.
    for (let run = 0; run < runs; run++) {
      for (const who of rotate(run)) {
        if (who === 'git') {
          record('restore', 'git', await time(() => ctx.git.restore(first.git)));
          ctx.git.restore(last.git);
        } else {
          record(
            'restore',
            who,
            await time(() => ctx[who].restore(first[who], who === 'b' ? { changed: [] } : {})),
          );
          await ctx[who].restore(last[who], who === 'b' ? { changed: [] } : {});
        }
      }
    }
    // A restore from a new process (the CLI's rollback, crash recovery): a child process opens
    // the engine, its index read from disk, and restores without a hint; it reports the time
    // from open to restored. Then back, untimed, the same way.
    const freshRestore = (sha) => {
      const child = spawnSync(
        process.execPath,
        [
          fileURLToPath(new URL('fresh-restore.mjs', import.meta.url)),
          engineUrl,
          join(base, 'a'),
          sha,
        ],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(`fresh restore failed: ${child.stderr}`);
      return Number(child.stdout.trim());
    };
    for (let run = 0; run < runs; run++) {
      record('restore, new process', 'git', await time(() => ctx.git.restore(first.git)));
      ctx.git.restore(last.git);
      record('restore, new process', 'a', freshRestore(first.a));
      freshRestore(last.a);
    }
    // History for list/resolve: `branches` more runs of 8 one-file checkpoints each, on new
    // branches.
    for (let branch = 1; branch <= branches; branch++) {
      ctx.git.branch(`run-r${branch}`);
      for (let i = 0; i < 8; i++) {
        const path = state.tracked[(branch * 8 + i) % state.tracked.length];
        writeFileSync(join(root, path), `branch ${branch} step ${i}\n`, { flag: 'a' });
        await ctx.a.checkpoint(input(state.tracked, `r${branch}`, undefined));
        await ctx.b.checkpoint(input(state.tracked, `r${branch}`, [path]));
        ctx.git.checkpoint(`step ${i}`);
      }
    }
    // The 41st newest checkpoint (or the oldest, with fewer branches).
    const listed = await ctx.a.list();
    const revs = ctx.git.git('rev-list', '--all').trim().split('\n');
    const target = {
      a: listed[Math.min(40, listed.length - 1)].sha,
      git: revs[Math.min(40, revs.length - 1)],
    };
    for (let run = 0; run < runs; run++) {
      record('list', 'git', await time(() => ctx.git.list()));
      record('list', 'a', await time(() => ctx.a.list()));
      // A freshly opened engine has no commit cache: every commit is read from disk.
      const cold = await CheckpointEngine.open({ executionDir: join(base, 'a') });
      record('list, fresh engine', 'git', results.list.git.at(-1));
      record('list, fresh engine', 'a', await time(() => cold.list()));
      await cold.close();
      record('resolve', 'git', await time(() => ctx.git.resolve(target.git.slice(0, 7))));
      record('resolve', 'a', await time(() => ctx.a.resolve(target.a.slice(0, 7))));
    }
    const commits = (await ctx.a.list()).length;
    await ctx.a.close();
    await ctx.b.close();
    return { count, results, commits };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const lines = [
  `Node ${process.version}, ${os.cpus().length} CPUs, load average at start: ${load()}` +
    `${scale === 1 ? '' : `, file sizes × ${scale}`}${dist ? `, engine from ${dist}` : ''}`,
];
for (const count of sizes) {
  const started = performance.now();
  const section = lines.length;
  const { results, commits } = await benchSize(count);
  lines.push(
    `\n### ${count.toLocaleString('en')} tracked files (medians of ${runs} runs; ${commits} checkpoints for list)\n`,
  );
  lines.push('| step | native git | engine, no hint | ratio | engine, `changed` hint | ratio |');
  lines.push('|---|---|---|---|---|---|');
  for (const [step, r] of Object.entries(results)) {
    const git = median(r.git);
    const cell = (values) =>
      values.length ? [fmt(median(values)), `${(median(values) / git).toFixed(2)}×`] : ['–', '–'];
    const [a, ar] = cell(r.a);
    const [b, br] = cell(r.b);
    lines.push(`| ${step} | ${fmt(git)} | ${a} | ${ar} | ${b} | ${br} |`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  lines.push(`\n(${count} files: ${seconds} s of benchmark; load average now: ${load()})`);
  console.log(lines.slice(section).join('\n'));
}
if (out) writeFileSync(out, `${lines.join('\n')}\n`);

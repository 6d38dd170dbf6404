// pnpm bench:watch (after pnpm build): the change scan after a tool call, from a walk and from the
// file system's events (TreeWatcher), against `git status` on the same tree, in one run.
//   node bench/watch.bench.mjs --files 10000,50000 --runs 9
//   node bench/watch.bench.mjs --files 250000        (outside CI: ~2 min to generate the tree)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ChangeScanner, TreeWatcher, UnifiedFileResolver } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000,50000' },
    runs: { type: 'string', default: '9' },
  },
});
const SIZES = values.files.split(',').map(Number);
const RUNS = Number(values.runs);
const RACY_SETTLE_MS = 2100;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const gitEnv = (home) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  XDG_CONFIG_HOME: home,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
});

/** N tracked files, 10 per directory, 100 directories per parent: like a source tree. */
function generate(root, n) {
  for (let i = 0; i < n; i++) {
    const dir = join(root, `pkg-${Math.floor(i / 1000)}`, `dir-${Math.floor(i / 10) % 100}`);
    if (i % 10 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file-${i % 10}.ts`), `export const v${i} = ${i};\n`);
  }
}

async function measure(n) {
  const work = mkdtempSync(join(tmpdir(), 'hankweave-watch-bench-'));
  const root = join(work, 'tree');
  const home = join(work, 'home');
  mkdirSync(home);
  try {
    let start = performance.now();
    generate(root, n);
    const generateS = (performance.now() - start) / 1000;
    const git = (args) =>
      execFileSync(
        'git',
        ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'gc.auto=0', ...args],
        { cwd: root, env: gitEnv(home), maxBuffer: 1 << 30 },
      );
    git(['init', '-q']);
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'baseline']);
    const status = () => git(['--no-optional-locks', 'status', '--porcelain', '-uall', '-z']);
    await sleep(RACY_SETTLE_MS);
    status();

    const resolver = new UnifiedFileResolver();
    const walked = new ChangeScanner(root, { resolver });
    walked.scan(['**']);
    start = performance.now();
    const watcher = await TreeWatcher.start(root);
    const startMs = performance.now() - start;
    const watched = new ChangeScanner(root, { resolver, watcher });
    start = performance.now();
    const first = await watched.scanWatched(['**']);
    const firstMs = performance.now() - start;
    if (first.by !== 'walk') throw new Error('the first watched scan should walk');
    // The first listing walks too: the baseline the events keep up to date.
    if ((await watched.listTree()).by !== 'walk') throw new Error('the first listing should walk');

    const samples = {
      walk: [],
      events: [],
      work: [],
      git: [],
      idle: [],
      listWalk: [],
      listEvents: [],
    };
    const contenders = [
      ['walk', async () => walked.scan(['**'])],
      ['events', () => watched.scanWatched(['**'])],
    ];
    for (let round = 0; round < RUNS; round++) {
      // A tool call's worth of changes: 5 rewritten, 3 created, 2 deleted.
      const dir = join(root, `pkg-${round % Math.ceil(n / 1000)}`, `dir-${(round * 7) % 100}`);
      for (let f = 0; f < 5; f++) writeFileSync(join(dir, `file-${f}.ts`), `// round ${round}\n`);
      for (let f = 0; f < 3; f++) writeFileSync(join(dir, `new-${round}-${f}.ts`), '1\n');
      unlinkSync(join(dir, 'file-8.ts'));
      unlinkSync(join(dir, 'file-9.ts'));
      // Rotate the order so no contender always goes first (page cache, event latency).
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const [name, run] of order) {
        const t = performance.now();
        const result = await run();
        samples[name].push(performance.now() - t);
        const total =
          result.changes.created.length +
          result.changes.modified.length +
          result.changes.deleted.length;
        if (total !== 10) throw new Error(`${name} found ${total} changes, not 10`);
        if (name === 'events' && result.by !== 'events') {
          throw new Error(`the watched scan walked: ${result.walkReason}`);
        }
        if (name === 'events') samples.work.push(samples.events.at(-1) - result.settleMs);
      }
      let t = performance.now();
      status();
      samples.git.push(performance.now() - t);
      // Nothing changed since: what a scan costs when the agent's tool touched no file.
      await sleep(600);
      t = performance.now();
      await watched.scanWatched(['**']);
      samples.idle.push(performance.now() - t);
      // A checkpoint's listing of the whole tree (every file, directory and ignore file).
      const listings = [
        ['listWalk', async () => ({ listing: resolver.listTree(root), by: 'walk' })],
        ['listEvents', () => watched.listTree()],
      ];
      const counts = [];
      for (const [name, list] of round % 2 === 0 ? listings : [...listings].reverse()) {
        t = performance.now();
        const listed = await list();
        samples[name].push(performance.now() - t);
        if (name === 'listEvents' && listed.by !== 'events') {
          throw new Error(`the watched listing walked: ${listed.walkReason}`);
        }
        counts.push(listed.listing.files.length + listed.listing.directories.length);
      }
      if (counts[0] !== counts[1]) throw new Error(`the listings differ: ${counts.join(' vs ')}`);
      // Files come back after the round: the next round sees them all again.
      writeFileSync(join(dir, 'file-8.ts'), '8\n');
      writeFileSync(join(dir, 'file-9.ts'), '9\n');
      for (let f = 0; f < 3; f++) unlinkSync(join(dir, `new-${round}-${f}.ts`));
      walked.scan(['**']);
      await watched.scanWatched(['**']);
      git(['add', '-A']);
    }
    const rss = process.memoryUsage().rss;
    await watcher.close();
    return { n, generateS, startMs, firstMs, rss, samples };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const gitVersion = execFileSync('git', ['--version']).toString().trim();
const lines = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${gitVersion}. Medians of ${RUNS} rounds.`,
  '',
  '| tracked files | `git status` | walk (`scan`) | ÷ git | events (`scanWatched`) | ÷ git | of which not waiting | no-change, quiet tree | watcher start | first scan | listing: walk (`listTree`) | listing: events |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const n of SIZES) {
  const r = await measure(n);
  const git = median(r.samples.git);
  const walk = median(r.samples.walk);
  const events = median(r.samples.events);
  lines.push(
    `| ${n.toLocaleString('en')} | ${git.toFixed(1)} ms | ${walk.toFixed(1)} ms | ${(walk / git).toFixed(2)}× | ${events.toFixed(1)} ms | ${(events / git).toFixed(2)}× | ${median(r.samples.work).toFixed(1)} ms | ${median(r.samples.idle).toFixed(1)} ms | ${r.startMs.toFixed(0)} ms | ${r.firstMs.toFixed(0)} ms | ${median(r.samples.listWalk).toFixed(1)} ms | ${median(r.samples.listEvents).toFixed(1)} ms |`,
  );
  process.stderr.write(
    `${n} files: generated in ${r.generateS.toFixed(1)} s, rss ${(r.rss / 2 ** 20).toFixed(0)} MiB\n`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);

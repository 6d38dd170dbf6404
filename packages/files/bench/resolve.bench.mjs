// pnpm bench (after pnpm build): resolve() and a rescan against `git ls-files` on a 100k tree.
// Every figure is also given as a ratio to git's time measured in the same run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeScanner, UnifiedFileResolver } from '../dist/index.js';
import { generateTree } from './generate-tree.mjs';

const RUNS = Math.min(40, Number(process.env.BENCH_RUNS ?? 9));
const RACY_SETTLE_MS = 2100;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const time = (fn) => {
  const start = performance.now();
  const result = fn();
  return [performance.now() - start, result];
};
const gitEnv = (home) => ({
  PATH: (process.env.PATH ?? '/usr/bin:/bin')
    .split(':')
    .filter((entry) => entry.startsWith('/'))
    .join(':'),
  HOME: home,
  XDG_CONFIG_HOME: home,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
});

const work = mkdtempSync(join(tmpdir(), 'hankweave-files-bench-'));
const root = join(work, 'tree');
const home = join(work, 'home');
try {
  const [generateMs, fileCount] = time(() => generateTree(root));
  execFileSync('git', ['init', '-q'], { cwd: root, env: gitEnv(home) });
  const git = () =>
    execFileSync('git', ['ls-files', '--others', '--cached', '--exclude-standard', '-z'], {
      cwd: root,
      env: gitEnv(home),
      maxBuffer: 1 << 30,
    })
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
  // Let the newest files age past the racy window, as a tree does between two tool calls.
  await new Promise((done) => setTimeout(done, RACY_SETTLE_MS));

  const expected = git();
  const shared = new UnifiedFileResolver();
  const same = JSON.stringify(shared.resolve(root, ['**'])) === JSON.stringify(expected);
  if (!same) throw new Error('resolve() and git ls-files disagree on the benchmark tree');

  const samples = { git: [], cold: [], warm: [], list: [], scan: [], rescan: [], status: [] };
  // Warm-up: page cache, JIT, git's first-run costs.
  for (let i = 0; i < 2; i++) {
    git();
    new UnifiedFileResolver().resolve(root, ['**']);
  }
  for (let i = 0; i < RUNS; i++) {
    samples.git.push(time(git)[0]);
    samples.cold.push(time(() => new UnifiedFileResolver().resolve(root, ['**']))[0]);
    samples.warm.push(time(() => shared.resolve(root, ['**']))[0]);
    // What a checkpoint walks since issue 38: files, directories and the rules in force.
    samples.list.push(time(() => shared.listTree(root))[0]);
  }

  // Git's own stat-based change detection is the fair baseline for rescans: commit the listed
  // files so that `git status` lstats each of them against the index, as a rescan does.
  const gitIn = (args, options = {}) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
      cwd: root,
      env: gitEnv(home),
      maxBuffer: 1 << 30,
      ...options,
    });
  gitIn(['add', '-A']);
  gitIn(['commit', '-q', '-m', 'baseline']);
  const gitStatus = () => gitIn(['--no-optional-locks', 'status', '--porcelain', '-uall', '-z']);
  gitStatus();

  // Rescans: one scanner, a baseline scan, then 10 changes before each timed scan.
  const scanner = new ChangeScanner(root, { resolver: shared });
  samples.scan.push(time(() => scanner.scan(['**']))[0]);
  for (let i = 0; i < RUNS; i++) {
    const dir = join(root, 'src', `module-${(10 + i) % 50}`, 'part-3');
    for (let f = 2; f < 7; f++)
      writeFileSync(join(dir, `file-${f}.ts`), `export const run${i} = ${f};\n`);
    for (let f = 0; f < 3; f++)
      writeFileSync(join(root, 'src', `module-${f}`, `new-${i}.ts`), '1\n');
    unlinkSync(join(dir, 'file-7.ts'));
    unlinkSync(join(dir, 'file-8.ts'));
    const [ms, { changes }] = time(() => scanner.scan(['**']));
    const total = changes.created.length + changes.modified.length + changes.deleted.length;
    if (total !== 10) throw new Error(`rescan found ${total} changes instead of 10`);
    samples.rescan.push(ms);
    const status = gitStatus().toString('utf8').split('\0').filter(Boolean);
    if (status.length < 10) throw new Error(`git status found ${status.length} changes, not 10`);
    samples.status.push(time(gitStatus)[0]);
  }
  for (let i = 0; i < RUNS - 1; i++) {
    samples.scan.push(time(() => new ChangeScanner(root, { resolver: shared }).scan(['**']))[0]);
  }

  const gitMs = median(samples.git);
  const statusMs = median(samples.status);
  const row = (name, key) => {
    const ms = median(samples[key]);
    return `| ${name} | ${ms.toFixed(1)} | ${(ms / gitMs).toFixed(2)}× | ${(ms / statusMs).toFixed(2)}× |`;
  };
  const lines = [
    `Tree: ${fileCount.toLocaleString('en')} files (80,000 under an ignored node_modules/), ` +
      `${expected.length.toLocaleString('en')} listed; generated in ${(generateMs / 1000).toFixed(1)} s.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ` +
      `${execFileSync('git', ['--version']).toString().trim()}. Medians of ${RUNS} runs.`,
    '',
    '| measure | median ms | ÷ git ls-files | ÷ git status |',
    '| --- | ---: | ---: | ---: |',
    row('`git ls-files --others --cached --exclude-standard` (empty index; incl. spawn)', 'git'),
    row(
      '`git status --porcelain -uall` after the same 10 changes (all committed; incl. spawn)',
      'status',
    ),
    row('`resolve(root, ["**"])`, new resolver each run (cold caches)', 'cold'),
    row('`resolve(root, ["**"])`, one resolver reused (warm caches)', 'warm'),
    row("`listTree(root)`, one resolver reused (a checkpoint's walk and listing)", 'list'),
    row('full scan: resolve + lstat of every listed file (`ChangeScanner`, first scan)', 'scan'),
    row('rescan after 10 changes (5 modified, 3 created, 2 deleted)', 'rescan'),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const ratio = median(samples.cold) / gitMs;
  if (ratio > 1.5) {
    process.stdout.write(`\nFAIL: cold resolve is ${ratio.toFixed(2)}× git (limit 1.5×)\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

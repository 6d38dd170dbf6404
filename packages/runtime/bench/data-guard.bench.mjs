// The data guard's cost per check (issue 20): a stat walk of the data source and the diff with its
// baseline, as run after every tool call that may change files and after every rig operation.
// Data: 10,000 small files in 100 directories, reached through a symlink as in an execution.
// Baseline in the same run: GNU find printing the same stat fields for every entry (a native stat
// walk), as a ratio. A watched data source (issue 39) answers a check after a tool call from its
// file events instead: a settle, a look at them and an lstat of the link; that is measured too, with how
// long a write's events take to arrive. Run: node bench/data-guard.bench.mjs (from packages/runtime)
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TreeWatcher } from '@hankweave/files';
import { build } from 'tsup';

// The data guard is internal: the package exports no entry for it. The bench compiles its two
// modules from src with the package's own bundler (the same esbuild output as dist) into a tmp dir.
const compiled = mkdtempSync(join(tmpdir(), 'data-guard-bench-build-'));
const source = (path) => fileURLToPath(new URL(`../src/data-guard/${path}`, import.meta.url));
await build({
  entry: { guard: source('fingerprint-diff.ts'), fingerprint: source('data-fingerprint.ts') },
  outDir: compiled,
  format: ['esm'],
  target: 'node20',
  config: false,
  silent: true,
});
const { takeFingerprint } = await import(pathToFileURL(join(compiled, 'fingerprint.js')).href);
const { diffFingerprints } = await import(pathToFileURL(join(compiled, 'guard.js')).href);
rmSync(compiled, { recursive: true, force: true });

const DIRECTORIES = 100;
const FILES_PER_DIRECTORY = 100;
const CHECKS = 30;

const root = mkdtempSync(join(tmpdir(), 'data-guard-bench-'));
try {
  const data = join(root, 'data');
  for (let dir = 0; dir < DIRECTORIES; dir++) {
    mkdirSync(join(data, `dir-${dir}`), { recursive: true });
    for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
      writeFileSync(join(data, `dir-${dir}`, `file-${file}.txt`), `row ${dir},${file}\n`);
    }
  }
  const link = join(root, 'read_only_data_source');
  symlinkSync(data, link);

  const baseline = takeFingerprint(link);
  // Warm the code paths and the inode cache, as a running codon has.
  for (let index = 0; index < 3; index++) diffFingerprints(baseline, takeFingerprint(link));
  const times = [];
  for (let index = 0; index < CHECKS; index++) {
    const started = performance.now();
    const changes = diffFingerprints(baseline, takeFingerprint(link));
    times.push(performance.now() - started);
    if (changes.length !== 0) throw new Error(`unexpected changes: ${JSON.stringify(changes)}`);
  }
  const native = [];
  for (let index = 0; index < CHECKS; index++) {
    const started = performance.now();
    execFileSync('find', ['-L', link, '-printf', '%P %y %s %T@ %C@ %i\n'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    native.push(performance.now() - started);
  }
  const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const median = medianOf(times);
  const p95 = [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)];
  const nativeMedian = medianOf(native);
  console.log(
    `data guard, ${baseline.entries.size - 1} entries: median ${median.toFixed(1)} ms per check, p95 ${p95.toFixed(1)} ms (${CHECKS} checks); native find ${nativeMedian.toFixed(1)} ms (process start included): ${(median / nativeMedian).toFixed(2)}x`,
  );

  // The watched data source: what the runtime's DataSourceWatches does per check (a settle, a
  // look at the events, an lstat of the link).
  const watcher = await TreeWatcher.start(realpathSync(link), { readOnly: true });
  try {
    watcher.take();
    const watched = [];
    for (let index = 0; index < CHECKS; index++) {
      const started = performance.now();
      await watcher.settle();
      const { dirty, stale } = watcher.take();
      lstatSync(link);
      watched.push(performance.now() - started);
      if (dirty.length > 0 || stale) throw new Error(`unexpected events: ${dirty.join(', ')}`);
    }
    const arrivals = [];
    for (let index = 0; index < 10; index++) {
      writeFileSync(join(data, 'dir-0', `late-${index}.txt`), 'x');
      const started = performance.now();
      while (watcher.take().dirty.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 1));
      arrivals.push(performance.now() - started);
    }
    const watchedMedian = medianOf(watched);
    console.log(
      `data guard from events (no change): median ${watchedMedian.toFixed(3)} ms per check: ${(watchedMedian / nativeMedian).toFixed(4)}x of native find; a write's events arrived after median ${medianOf(arrivals).toFixed(1)} ms, max ${Math.max(...arrivals).toFixed(1)} ms (10 writes)`,
    );
  } finally {
    await watcher.close();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

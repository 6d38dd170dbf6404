// Benchmarks of @hankweave/state (not part of `pnpm test`): `pnpm bench` (turbo builds first).
// Every figure is set beside a baseline measured in the same run, on the same disk.
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { StateStore } from '../dist/index.js';
import { buildState } from './build-state.mjs';

const quick = process.argv.includes('--quick');
const SIZES = [
  { label: '10 KB', bytes: 10_000, latencyRuns: 200, seconds: 2 },
  { label: '1 MB', bytes: 1_000_000, latencyRuns: 60, seconds: 3 },
  { label: '10 MB', bytes: 10_000_000, latencyRuns: quick ? 8 : 20, seconds: quick ? 3 : 6 },
];
const BURST = 10_000;
const silent = { warn: () => {} };
// The store on a file system whose fsync does nothing: isolates what durability costs.
const noSyncFs = {
  ...fsp,
  open: async (path, flags, mode) => {
    const handle = await fsp.open(path, flags, mode);
    return {
      writeFile: (data) => handle.writeFile(data),
      sync: async () => {},
      close: () => handle.close(),
    };
  },
};

const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
};
const time = async (runs, body) => {
  const samples = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await body(index);
    samples.push(performance.now() - started);
  }
  return stats(samples);
};
const ms = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const ratio = (a, b) => `${(a / b).toFixed(a / b >= 100 ? 0 : 2)}×`;

let counter = 0;
const message = () => ({
  type: 'AssistantMessageCountUpdated',
  data: { runId: 'bench', codonId: 'live', newCount: ++counter },
});

/** A fresh execution dir holding `state` as state.json, and a store on it with a live codon. */
const openStore = async (state, fs) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'state-bench-')), '.hankweave');
  mkdirSync(dir);
  writeFileSync(join(dir, 'state.json'), JSON.stringify(state, null, 2));
  const store = await StateStore.open(dir, { fs, logger: silent });
  const at = new Date().toISOString();
  const ref = { runId: 'bench', codonId: 'live' };
  store.apply({
    type: 'RunStarted',
    data: {
      runId: 'bench',
      runFolder: `${dir}/runs/bench`,
      gitBranch: 'run-bench',
      startingConditions: { type: 'fresh' },
      serverPid: process.pid,
      startTime: at,
    },
  });
  store.apply({ type: 'CodonStarted', data: { ...ref, startTime: at } });
  store.apply({
    type: 'CodonTransitioned',
    data: { ...ref, from: 'preparing', to: 'starting', at, metadata: {} },
  });
  store.apply({
    type: 'CodonTransitioned',
    data: {
      ...ref,
      from: 'starting',
      to: 'initializing',
      at,
      metadata: { claudePid: 1, claudeLogPath: 'l' },
    },
  });
  store.apply({
    type: 'CodonTransitioned',
    data: { ...ref, from: 'initializing', to: 'running', at, metadata: { claudeSessionId: 's' } },
  });
  await store.flush();
  return { store, dir };
};

const rows = [];
for (const size of SIZES) {
  const state = buildState(size.bytes);
  const json = JSON.stringify(state, null, 2);
  const { store, dir } = await openStore(state);
  const { store: noSync, dir: noSyncDir } = await openStore(state, noSyncFs);
  const plain = join(dir, 'plain.json');

  // 1. Latency of one transition made durable, against plain writes of the same JSON.
  const storeLatency = await time(size.latencyRuns, async () => {
    store.apply(message());
    await store.flush();
  });
  const noSyncLatency = await time(size.latencyRuns, async () => {
    noSync.apply(message());
    await noSync.flush();
  });
  const writeFileLatency = await time(size.latencyRuns, () =>
    writeFileSync(plain, JSON.stringify(state, null, 2)),
  );
  const seedLatency = await time(size.latencyRuns, () => {
    // The original runtime's save: copy to .bak, write .tmp, rename; no fsync.
    copyFileSync(plain, `${plain}.bak`);
    writeFileSync(`${plain}.tmp`, JSON.stringify(state, null, 2));
    renameSync(`${plain}.tmp`, plain);
  });

  // 2. Sustained throughput: transitions stream in (yielding to I/O every 100) for a few seconds.
  const writesBefore = store.stats().writes;
  let applied = 0;
  const started = performance.now();
  const until = started + size.seconds * 1000;
  while (performance.now() < until) {
    store.apply(message());
    if (++applied % 100 === 0) await yieldToIo();
  }
  await store.flush();
  const sustainedSeconds = (performance.now() - started) / 1000;
  const sustained = applied / sustainedSeconds;
  const sustainedWrites = store.stats().writes - writesBefore;
  // Naive strategy: one durable save per transition (what `await flush()` after each apply does).
  const naivePerSecond = 1000 / storeLatency.median;

  // 3. A burst of 10 000 transitions arriving over many event-loop turns (100 per turn).
  const burstWritesBefore = store.stats().writes;
  const burstStarted = performance.now();
  for (let index = 1; index <= BURST; index++) {
    store.apply(message());
    if (index % 100 === 0) await yieldToIo();
  }
  await store.flush();
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  const burstWrites = store.stats().writes - burstWritesBefore;
  const naiveBurstSeconds = (BURST * seedLatency.median) / 1000;

  rows.push({
    size: `${size.label} (${(json.length / 1e6).toFixed(2)} MB)`,
    storeLatency,
    noSyncLatency,
    writeFileLatency,
    seedLatency,
    sustained,
    sustainedWrites,
    sustainedSeconds,
    naivePerSecond,
    burstWrites,
    burstSeconds,
    naiveBurstSeconds,
  });
  await store.close();
  await noSync.close();
  rmSync(join(dir, '..'), { recursive: true, force: true });
  rmSync(join(noSyncDir, '..'), { recursive: true, force: true });
}

console.log(
  `\n@hankweave/state benchmarks: node ${process.version}, ${process.platform}, ${new Date().toISOString()}\n`,
);
console.log('### apply + flush latency (ms, median / p95)\n');
console.log(
  '| state | store (durable) | store, fsync disabled | baseline A: writeFileSync | baseline B: seed save, no fsync | store ÷ A | store ÷ B |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.size} | ${ms(r.storeLatency.median)} / ${ms(r.storeLatency.p95)} | ${ms(r.noSyncLatency.median)} / ${ms(r.noSyncLatency.p95)} | ${ms(r.writeFileLatency.median)} / ${ms(r.writeFileLatency.p95)} | ${ms(r.seedLatency.median)} / ${ms(r.seedLatency.p95)} | ${ratio(r.storeLatency.median, r.writeFileLatency.median)} | ${ratio(r.storeLatency.median, r.seedLatency.median)} |`,
  );
}
console.log('\n### sustained transitions per second (durable, coalesced)\n');
console.log(
  '| state | store | saves during the run | transitions per save | baseline: one durable save per transition | store ÷ baseline |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.size} | ${Math.round(r.sustained).toLocaleString('en-US')} /s | ${r.sustainedWrites} in ${r.sustainedSeconds.toFixed(1)} s | ${Math.round((r.sustained * r.sustainedSeconds) / Math.max(1, r.sustainedWrites))} | ${Math.round(r.naivePerSecond).toLocaleString('en-US')} /s | ${ratio(r.sustained, r.naivePerSecond)} |`,
  );
}
console.log(
  `\n### burst of ${BURST.toLocaleString('en-US')} transitions (100 per event-loop turn)\n`,
);
console.log(
  '| state | saves | time until durable | saves per second | baseline: seed save per transition | baseline ÷ store |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.size} | ${r.burstWrites} | ${(r.burstSeconds * 1000).toFixed(0)} ms | ${(r.burstWrites / r.burstSeconds).toFixed(0)} | ${BURST.toLocaleString('en-US')} saves, ≈ ${r.naiveBurstSeconds.toFixed(1)} s | ${ratio(r.naiveBurstSeconds, r.burstSeconds)} |`,
  );
}

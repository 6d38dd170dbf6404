// Fleet throughput (issue 23): jobs per minute of 1, 2 and 4 `hankweave worker` processes
// (concurrency 1 each) draining the same jobs, as a ratio to one worker in the same run. The
// codons are I/O-bound: the scripted model takes <delay> seconds to answer the codon's one turn
// (its `delayMs`), so the real Claude Code agent, and the worker, mostly wait, as on a real model.
// Run: pnpm --filter @hankweave/queue --filter hankweave build && pnpm --filter @hankweave/queue bench
// Knobs: BENCH_JOBS (default 8), BENCH_DELAY_S (default 2), BENCH_WORKERS (default 1,2,4).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listJobs, submitHank } from '../dist/index.js';
import { startRedis } from '../dist/testing.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 8);
const DELAY_S = Number(process.env.BENCH_DELAY_S ?? 2);
const FLEETS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const BIN = fileURLToPath(new URL('../../../apps/cli/dist/bin.js', import.meta.url));
if (!existsSync(BIN)) {
  console.error(`No ${BIN}: build the CLI first (pnpm --filter hankweave build).`);
  process.exit(1);
}

const root = mkdtempSync(join(tmpdir(), 'queue-bench-'));
const redis = await startRedis();
const env = { ...process.env, HOME: join(root, 'home'), TMPDIR: join(root, 'tmp') };
mkdirSync(env.HOME, { recursive: true });
mkdirSync(env.TMPDIR, { recursive: true });
const hankDir = join(root, 'hank');
mkdirSync(hankDir);
writeFileSync(
  join(hankDir, 'hank.json'),
  JSON.stringify({
    meta: { name: 'io-bound', version: '1.0.0' },
    hank: [
      {
        id: 'wait',
        name: 'Wait',
        model: 'sonnet',
        continuationMode: 'fresh',
        promptText: 'Wait for the slow service.',
      },
    ],
  }),
);
writeFileSync(
  join(hankDir, 'model-script.json'),
  JSON.stringify({
    conversations: [
      {
        name: 'wait',
        match: { marker: 'Wait for the slow service' },
        turns: [{ content: [{ text: 'Done.' }], delayMs: DELAY_S * 1000 }],
      },
    ],
  }),
);

/** One data directory per job: a dry run keys its agent config directory by the data path. */
const dataDirs = Array.from({ length: JOBS }, (_, index) => {
  const dir = join(root, 'data', String(index));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'input.txt'), `job ${index}\n`);
  return dir;
});

function startWorker(queueName, baseDir) {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--redis', redis.url, '--queue', queueName, '--base', baseDir, '--json'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Its stderr only says it is stopping; it is shown when the worker fails to start.
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString();
  });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('"worker.ready"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, ready, exited };
}

async function drain(workerCount, dirs = dataDirs) {
  const queueName = `bench-${workerCount}-${Date.now()}`;
  const baseDir = join(root, `executions-${queueName}`);
  const workers = Array.from({ length: workerCount }, () => startWorker(queueName, baseDir));
  await Promise.all(workers.map((worker) => worker.ready));
  const started = performance.now();
  for (const data of dirs)
    await submitHank(redis.url, {
      hank: hankDir,
      data,
      queueName,
      options: { scriptedModel: join(hankDir, 'model-script.json') },
    });
  for (;;) {
    const jobs = await listJobs(redis.url, { queueName, statuses: ['completed', 'failed'] });
    if (jobs.some((job) => job.status === 'failed'))
      throw new Error(`a job failed: ${jobs.find((job) => job.status === 'failed').failedReason}`);
    if (jobs.length === dirs.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
  return seconds;
}

try {
  // A warm-up job: the first agent start pays for cold caches.
  await drain(1, dataDirs.slice(0, 1));
  const rows = [];
  for (const workerCount of FLEETS) rows.push({ workerCount, seconds: await drain(workerCount) });
  const base = rows.find((row) => row.workerCount === 1) ?? rows[0];
  const perMinute = (row) => (JOBS / row.seconds) * 60;
  console.log(
    `Fleet throughput: ${JOBS} jobs of one I/O-bound codon (the model answers after ${DELAY_S} s), ` +
      `${availableParallelism()} CPUs, load ${loadavg()[0].toFixed(1)} at the end`,
  );
  console.log('workers  wall (s)  jobs/min  ratio to 1 worker  ideal');
  for (const row of rows)
    console.log(
      `${String(row.workerCount).padEnd(9)}${row.seconds.toFixed(1).padEnd(10)}${perMinute(row)
        .toFixed(1)
        .padEnd(
          10,
        )}${(perMinute(row) / perMinute(base)).toFixed(2).padEnd(19)}${row.workerCount}.00`,
    );
} finally {
  await redis.stop();
  rmSync(root, { recursive: true, force: true });
}

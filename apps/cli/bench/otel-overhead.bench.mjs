// What exporting to OpenTelemetry costs a codon (issue 37; target ≤ 1.02×): the same hank run by
// the real runtime on FakeHarness (real agent log, parser, checkpoints, state; no process), in
// alternated pairs (off, on, off, on ...) in one process, exporting as `hankweave <hank>` does
// when OTEL_EXPORTER_OTLP_ENDPOINT is set: every event to the trace exporter and the metrics,
// spans over OTLP/HTTP to a receiver in another process (the collector), metrics pushed every
// second. A codon's time is CodonStarted → codon.completed, as the runtime's own events say.
//
// Two agents: one that answers at once (the runtime's overhead alone, the worst case for the
// ratio) and one that waits 50 ms per line of its log (a fast agent; real ones take seconds).
// Run (after `pnpm build`): node apps/cli/bench/otel-overhead.bench.mjs
// OTEL_BENCH_PAIRS=<n> changes the number of pairs (default 7).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FakeHarness } from '@hankweave/harness/testing';
import { createRuntime } from '@hankweave/runtime';
import { createTraceExporter, startMetrics } from '@hankweave/telemetry';

const PAIRS = Number(process.env.OTEL_BENCH_PAIRS ?? 7);
const CODONS = 8;
const FILES = 50;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The collector: an OTLP/HTTP receiver in a child process, so its parsing is not ours. */
async function startCollector() {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { startOtlpReceiver } from '@hankweave/telemetry/testing';
       const receiver = await startOtlpReceiver();
       console.log(receiver.url);
       process.stdin.on('data', () => console.log(receiver.spans().length));
       process.stdin.on('end', () => process.exit(0));`,
    ],
    { cwd: new URL('..', import.meta.url).pathname, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = [];
  let wake = () => {};
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
    wake();
  });
  const next = () =>
    new Promise((resolve) => {
      const check = () => {
        if (lines.length > 0) resolve(lines.shift());
        else wake = check;
      };
      check();
    });
  const url = await next();
  return {
    url,
    async spans() {
      child.stdin.write('?\n');
      return Number(await next());
    },
    close: () => child.stdin.end(),
  };
}

function makeHank(root) {
  mkdirSync(join(root, 'templates/docs'), { recursive: true });
  for (let index = 0; index < FILES; index++)
    writeFileSync(join(root, 'templates/docs', `file-${index}.md`), `# File ${index}\n`);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data/input.txt'), 'input');
  return {
    meta: { name: 'otel-bench', version: '1.0.0' },
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
}

/** One run of the hank; resolves with the median codon time (ms) and the export's report. */
async function runOnce(exporting, collector, lineDelayMs) {
  const root = mkdtempSync(join(tmpdir(), 'otel-bench-'));
  try {
    const hank = makeHank(root);
    const harness = new FakeHarness({
      lineDelayMs,
      script: {
        scenario: {
          turns: [
            { text: 'Looking at the docs.' },
            { toolUse: { name: 'Write', input: { file_path: 'docs/file-0.md', content: 'x' } } },
            { toolUse: { name: 'Bash', input: { command: 'ls docs' } } },
            { text: 'Done.' },
          ],
        },
      },
    });
    const runtime = createRuntime({
      hank,
      hankDir: root,
      dataPath: join(root, 'data'),
      executionBaseDir: join(root, 'executions'),
      harness,
      sandbox: 'off',
    });
    const started = new Map();
    const times = [];
    runtime.on((event) => {
      if (event.type === 'state.transition' && event.data.transitionType === 'CodonStarted')
        started.set(event.data.codonId, performance.now());
      if (event.type === 'codon.completed')
        times.push(performance.now() - started.get(event.data.codonId));
    });
    let traces;
    let metrics;
    let syncMs = 0;
    if (exporting) {
      traces = createTraceExporter({
        target: { url: `${collector.url}/v1/traces`, headers: {} },
        runAttributes: { 'hankweave.hank.name': hank.meta.name },
      });
      metrics = await startMetrics({
        otlp: { url: `${collector.url}/v1/metrics`, headers: {}, intervalMs: 1000 },
      });
      runtime.on((event) => {
        const before = performance.now();
        traces.push(event);
        metrics.recordEvent(event, { 'hankweave.hank.name': hank.meta.name });
        syncMs += performance.now() - before;
      });
    }
    const cpuBefore = process.cpuUsage();
    await runtime.start();
    const exit = await runtime.finished;
    const cpu = process.cpuUsage(cpuBefore);
    if (exit.exitCode !== 0) throw new Error(`the bench hank failed: ${exit.reason}`);
    const shutdownStarted = performance.now();
    const report = await traces?.shutdown();
    await metrics?.shutdown();
    return {
      codonMs: median(times),
      report,
      shutdownMs: performance.now() - shutdownStarted,
      syncPerCodonMs: syncMs / times.length,
      // The process's CPU time (runtime, agent log parsing, exporting) per codon: unlike wall
      // time it does not stretch when other jobs hold the cores.
      cpuPerCodonMs: (cpu.user + cpu.system) / 1000 / times.length,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function measure(collector, lineDelayMs) {
  // One warm-up pair, not counted: module loading and the JIT.
  await runOnce(false, collector, lineDelayMs);
  await runOnce(true, collector, lineDelayMs);
  const off = [];
  const on = [];
  const ratios = [];
  let spans = 0;
  let lost = 0;
  let shutdown = [];
  const sync = [];
  const cpuRatios = [];
  const cpuOff = [];
  const cpuOn = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    // Alternate which goes first, so a drift of the machine within a pair cancels out.
    const first = await runOnce(pair % 2 === 1, collector, lineDelayMs);
    const second = await runOnce(pair % 2 === 0, collector, lineDelayMs);
    const [a, b] = pair % 2 === 0 ? [first, second] : [second, first];
    sync.push(b.syncPerCodonMs);
    cpuRatios.push(b.cpuPerCodonMs / a.cpuPerCodonMs);
    cpuOff.push(a.cpuPerCodonMs);
    cpuOn.push(b.cpuPerCodonMs);
    off.push(a.codonMs);
    on.push(b.codonMs);
    ratios.push(b.codonMs / a.codonMs);
    spans += b.report.spans;
    lost += b.report.failed + b.report.dropped;
    shutdown.push(b.shutdownMs);
  }
  shutdown = median(shutdown);
  return {
    off: median(off),
    on: median(on),
    ratios,
    spans,
    lost,
    shutdown,
    sync: median(sync),
    cpu: { off: median(cpuOff), on: median(cpuOn), ratio: median(cpuRatios) },
  };
}

const collector = await startCollector();
const rows = [];
for (const [label, delay] of [
  ['agent answers at once (runtime overhead only)', 0],
  ['agent waits 50 ms per log line', 50],
]) {
  const result = await measure(collector, delay);
  const sorted = [...result.ratios].sort((a, b) => a - b);
  rows.push({
    label,
    off: result.off,
    on: result.on,
    ratio: median(result.ratios),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    spans: result.spans,
    lost: result.lost,
    shutdown: result.shutdown,
    sync: result.sync,
    cpu: result.cpu,
  });
}
const received = await collector.spans();
collector.close();

console.log(
  `OpenTelemetry export overhead per codon: ${CODONS}-codon hank, ${PAIRS} alternated pairs, medians`,
);
console.log(
  '| agent | codon wall, off | codon wall, on | wall ratio on/off (paired median; min–max) | CPU per codon off / on | CPU ratio (paired median) | mapping + SDK per codon (synchronous) | spans sent / lost | shutdown (flush) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.label} | ${row.off.toFixed(1)} ms | ${row.on.toFixed(1)} ms | **${row.ratio.toFixed(3)}×** (${row.min.toFixed(2)}–${row.max.toFixed(2)}) | ${row.cpu.off.toFixed(1)} / ${row.cpu.on.toFixed(1)} ms | **${row.cpu.ratio.toFixed(3)}×** | ${row.sync.toFixed(2)} ms | ${row.spans} / ${row.lost} | ${row.shutdown.toFixed(0)} ms |`,
  );
}
console.log(`The collector received ${received} spans in all (warm-up runs included).`);

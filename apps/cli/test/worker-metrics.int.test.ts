import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobResult, WorkerEvent } from '@hankweave/queue';
import { type RedisServer, startRedis } from '@hankweave/queue/testing';
import {
  closedPort,
  type OtlpReceiver,
  scrapePrometheus,
  startOtlpReceiver,
} from '@hankweave/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CLI_ROOT, createSandbox, runCli, type Sandbox } from './cli-harness.js';

// A real redis-server, a `hankweave worker --metrics-port` process of the built binary, a dry-run
// job of the bundled example; its /metrics scraped over HTTP and read with a Prometheus
// text-format parser, and the job's trace received by an OTLP/HTTP receiver on loopback.
describe('hankweave worker --metrics-port', () => {
  let receiver: OtlpReceiver;
  let redis: RedisServer;
  let sandbox: Sandbox;
  let worker: ChildProcess;
  let exited: Promise<number | null>;
  let port: number;
  const events: WorkerEvent[] = [];
  let stdout = '';
  const queue = 'metrics';

  const scrape = () => scrapePrometheus(`http://127.0.0.1:${port}/metrics`);
  const waitFor = async (predicate: () => boolean, what: string, timeoutMs = 90_000) => {
    const started = Date.now();
    while (!predicate()) {
      if (Date.now() - started > timeoutMs) throw new Error(`no ${what}; output:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    redis = await startRedis();
    receiver = await startOtlpReceiver();
    sandbox = createSandbox();
    port = await closedPort();
    worker = spawn(
      process.execPath,
      [
        ...[BIN, 'worker', '--redis', redis.url, '--queue', queue, '--json'],
        ...['--base', join(sandbox.root, 'shared'), '--metrics-port', String(port)],
      ],
      {
        // Traces only: the metrics are the Prometheus endpoint's.
        env: { ...sandbox.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` },
        cwd: CLI_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    exited = new Promise((resolve) => worker.on('exit', resolve));
    let buffer = '';
    worker.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      stdout += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
    });
    worker.stderr?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    await waitFor(() => events.some((event) => event.type === 'worker.ready'), 'worker.ready');
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await redis?.stop();
    await receiver?.close();
    sandbox?.cleanup();
  });

  it('says where, and serves the queue before any job', async () => {
    expect(stdout).toContain(`Prometheus metrics at http://127.0.0.1:${port}/metrics`);
    expect(stdout).toContain(`traces to ${receiver.url}/v1/traces`);
    const jobs = (await scrape()).family('hankweave_queue_jobs');
    expect(jobs.type).toBe('GAUGE');
    expect(
      jobs.metrics.find((metric) => metric.labels?.hankweave_job_state === 'waiting')?.value,
    ).toBe('0');
  });

  it('counts a dry-run job: job states, codons, durations, costs and tokens', async () => {
    const hankDir = sandbox.copyExample().hankDir;
    const submitted = await runCli(
      [
        ...['submit', hankDir, join(hankDir, 'data'), '--redis', redis.url, '--queue', queue],
        ...['--scripted-model', join(hankDir, 'model-script.json'), '--json'],
      ],
      { env: sandbox.env },
    );
    expect(submitted.stderr).toBe('');
    const { jobId } = JSON.parse(submitted.stdout) as { jobId: string };
    await waitFor(
      () => events.some((event) => event.type === 'job.completed' && event.jobId === jobId),
      'job.completed',
    );
    const completed = events.find((event) => event.type === 'job.completed') as {
      result: JobResult;
    };
    const { family, sum } = await scrape();
    const state = JSON.parse(
      readFileSync(join(completed.result.executionDir, '.hankweave', 'state.json'), 'utf8'),
    ) as {
      runs: Array<{ codons: Array<{ finalCost: number; finalTokens: Record<string, number> }> }>;
    };
    const codons = state.runs.flatMap((run) => run.codons);
    expect(sum('hankweave_queue_jobs', (l) => l.hankweave_job_state === 'completed')).toBe(1);
    expect(sum('hankweave_queue_jobs', (l) => l.hankweave_job_state === 'active')).toBe(0);
    expect(sum('hankweave_worker_running')).toBe(0);
    expect(sum('hankweave_worker_jobs_total', (l) => l.hankweave_job_outcome === 'started')).toBe(
      1,
    );
    expect(sum('hankweave_worker_jobs_total', (l) => l.hankweave_job_outcome === 'completed')).toBe(
      1,
    );
    expect(
      sum(
        'hankweave_codons_total',
        (l) => l.hankweave_codon_status === 'completed' && l.hankweave_hank_name === 'hello-hank',
      ),
    ).toBe(codons.length);
    expect(sum('hankweave_cost_total')).toBeCloseTo(
      codons.reduce((total, codon) => total + codon.finalCost, 0),
      10,
    );
    expect(sum('hankweave_tokens_total', (l) => l.gen_ai_token_type === 'output')).toBe(
      codons.reduce((total, codon) => total + (codon.finalTokens.outputTokens ?? 0), 0),
    );
    expect(family('hankweave_codon_duration').type).toBe('HISTOGRAM');

    // The job's run as one trace: its run span names the job, a span per codon under it with
    // state.json's cost.
    await receiver.waitFor(
      (spans) => spans.some((span) => span.name === 'run' && span.endMs > 0),
      20_000,
    );
    const spans = receiver.spans();
    const runs = spans.filter((span) => span.name === 'run');
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run?.attributes['hankweave.job.id']).toBe(jobId);
    expect(run?.attributes['hankweave.hank.name']).toBe('hello-hank');
    expect(run?.attributes['hankweave.execution.dir']).toBe(completed.result.executionDir);
    const codonSpans = spans.filter(
      (span) => span.name.startsWith('codon ') && span.parentSpanId === run?.spanId,
    );
    expect(codonSpans).toHaveLength(codons.length);
    expect(
      codonSpans.reduce((total, span) => total + Number(span.attributes['hankweave.cost.usd']), 0),
    ).toBeCloseTo(
      codons.reduce((total, codon) => total + codon.finalCost, 0),
      10,
    );
  });

  it('closes the endpoint with the worker', async () => {
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Closing flushed no second, partial trace of the finished job (late runtime events).
    expect(receiver.spans().filter((span) => span.name === 'run')).toHaveLength(1);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

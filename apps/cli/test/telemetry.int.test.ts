import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  closedPort,
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '@hankweave/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
} from './cli-harness.js';

interface StateCodon {
  codonId: string;
  finalCost: number;
  finalTokens: {
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheCreationTokens: number;
  };
}

const children = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) =>
  spans.filter((span) => span.parentSpanId === parent?.spanId);

// A dry run of the bundled example sends its traces (and metrics) to a real OTLP/HTTP receiver on
// loopback; then `traces export` sends the same journal again after the fact.
describe('OpenTelemetry export of a dry run of the bundled example', () => {
  let sandbox: Sandbox;
  let receiver: OtlpReceiver;
  let run: CliResult;
  let executionDir: string;
  let codons: StateCodon[];
  let state: {
    runs: Array<{ runId: string; startTime: string; endTime: string; codons: StateCodon[] }>;
  };

  beforeAll(async () => {
    sandbox = createSandbox();
    receiver = await startOtlpReceiver();
    const example = sandbox.copyExample();
    run = await runCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'],
      { env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } },
    );
    executionDir = executionDirOf(run.stdout);
    state = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
    codons = state.runs[0]?.codons ?? [];
  });
  afterAll(async () => {
    await receiver.close();
    sandbox.cleanup();
  });

  it('runs as without it, saying where the traces go, with no warning', () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`OpenTelemetry: traces to ${receiver.url}/v1/traces`);
    // OTLP/HTTP's default encoding, as the specification says (http/json only when asked).
    expect(
      receiver.requests().every((request) => request.contentType === 'application/x-protobuf'),
    ).toBe(true);
  });

  it('sends one trace: the run, its codons, their model requests, tools and checkpoints', () => {
    const spans = receiver.spans();
    const roots = spans.filter((span) => span.parentSpanId === '');
    expect(roots.map((span) => span.name)).toEqual(['run']);
    const [root] = roots;
    expect(root?.resource['service.name']).toBe('hankweave');
    expect(root?.attributes['hankweave.hank.name']).toBe('hello-hank');
    expect(root?.attributes['hankweave.execution.dir']).toBe(executionDir);
    expect(root?.attributes['hankweave.run.id']).toBe(state.runs[0]?.runId);
    expect(root?.startMs).toBe(Date.parse(state.runs[0]?.startTime ?? ''));
    expect(root?.endMs).toBe(Date.parse(state.runs[0]?.endTime ?? ''));
    expect(root?.status.code).toBe(1);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const codonSpans = children(spans, root).filter((span) => span.name.startsWith('codon '));
    expect(codonSpans.map((span) => span.attributes['hankweave.codon.id'])).toEqual(
      codons.map((codon) => codon.codonId),
    );
    for (const span of codonSpans) {
      const below = children(spans, span);
      const turns = below.filter((child) => child.name.startsWith('chat '));
      expect(turns.length).toBeGreaterThan(0);
      for (const turn of turns) {
        expect(turn.kind).toBe(3);
        expect(turn.attributes['gen_ai.operation.name']).toBe('chat');
        expect(turn.attributes['gen_ai.provider.name']).toBe('anthropic');
        expect(turn.attributes['gen_ai.request.model']).toBeTypeOf('string');
        expect(turn.attributes['gen_ai.usage.output_tokens']).toBeTypeOf('number');
        expect(turn.attributes['gen_ai.response.finish_reasons']).toEqual(expect.any(Array));
        expect(turn.startMs).toBeGreaterThanOrEqual(span.startMs);
        expect(turn.endMs).toBeLessThanOrEqual(span.endMs);
      }
      expect(below.some((child) => child.name === 'checkpoint completed')).toBe(true);
    }
    const tools = spans.filter((span) => span.name.startsWith('execute_tool '));
    expect(tools.map((span) => span.attributes['gen_ai.tool.name'])).toContain('Bash');
    expect(tools.every((span) => typeof span.attributes['gen_ai.tool.call.id'] === 'string')).toBe(
      true,
    );
    // The run summary's "Checkpoints 5": one rig-setup, four completions.
    expect(spans.filter((span) => span.name.startsWith('checkpoint '))).toHaveLength(5);
    expect(spans.filter((span) => span.name === 'rig setup')).toHaveLength(1);
    // No content unless asked for.
    expect(JSON.stringify(spans)).not.toContain('gen_ai.tool.call.arguments');
    expect(JSON.stringify(spans)).not.toContain('read_only_data_source');
  });

  it("puts state.json's costs and tokens on the codon spans, and their sum on the run", () => {
    const spans = receiver.spans();
    let total = 0;
    for (const codon of codons) {
      const span = spans.find(
        (candidate) =>
          candidate.name.startsWith('codon ') &&
          candidate.attributes['hankweave.codon.id'] === codon.codonId,
      );
      const tokens = codon.finalTokens;
      expect(span?.attributes['hankweave.cost.usd']).toBeCloseTo(codon.finalCost, 10);
      expect(span?.attributes['gen_ai.usage.output_tokens']).toBe(tokens.outputTokens);
      expect(span?.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(tokens.cacheReadTokens);
      expect(span?.attributes['hankweave.usage.uncached_input_tokens']).toBe(tokens.inputTokens);
      expect(span?.attributes['gen_ai.usage.input_tokens']).toBe(
        tokens.inputTokens + tokens.cacheReadTokens + tokens.cacheCreationTokens,
      );
      const turns = children(spans, span).filter((child) => child.name.startsWith('chat '));
      const turnCost = turns.reduce(
        (sum, turn) => sum + Number(turn.attributes['hankweave.cost.usd']),
        Number(span?.attributes['hankweave.cost.reconciliation_usd'] ?? 0),
      );
      expect(turnCost).toBeCloseTo(codon.finalCost, 10);
      total += codon.finalCost;
    }
    const root = spans.find((span) => span.name === 'run');
    expect(root?.attributes['hankweave.cost.usd']).toBeCloseTo(total, 10);
  });

  it('pushes the run metrics over OTLP at its end', () => {
    const text = JSON.stringify(receiver.metrics());
    expect(text).toContain('hankweave.codon.duration');
    expect(text).toContain('hankweave.cost');
    expect(receiver.requests().some((request) => request.path === '/v1/metrics')).toBe(true);
  });

  it('`traces export` sends the same tree again from the journal, with --json', async () => {
    const again = await startOtlpReceiver();
    try {
      const result = await runCli(['traces', 'export', '-e', executionDir, '--json'], {
        env: { ...sandbox.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${again.url}/v1/traces` },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({ executionDir, failed: 0, dropped: 0, complete: true });
      const live = receiver.spans();
      const replayed = again.spans();
      expect(report.spans).toBe(replayed.length);
      expect(report.traceIds).toEqual([replayed.find((span) => span.name === 'run')?.traceId]);
      const shape = (spans: ReceivedSpan[]) =>
        spans
          .map(
            (span) =>
              `${span.name} ${span.startMs} ${span.endMs} ${span.attributes['hankweave.cost.usd'] ?? ''}`,
          )
          .sort();
      expect(shape(replayed)).toEqual(shape(live));
    } finally {
      await again.close();
    }
  });

  it('`traces export` without an endpoint says which variable to set', async () => {
    const result = await runCli(['traces', 'export', '-e', executionDir], { env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No OpenTelemetry endpoint is set');
    expect(result.stderr).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});

describe('a malformed endpoint', () => {
  it('stops a run before it starts, naming the variable', async () => {
    const sandbox = createSandbox();
    try {
      const example = sandbox.copyExample();
      const run = await runCli(
        [example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'],
        { env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' } },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL');
      expect(existsSync(sandbox.baseDir)).toBe(false);
      // A protocol this exporter does not speak is refused too, never replaced in silence.
      const grpc = await runCli(
        [example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'],
        {
          env: {
            ...sandbox.env,
            OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317',
            OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
          },
        },
      );
      expect(grpc.code).toBe(1);
      expect(grpc.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported');
      expect(grpc.stderr).toContain('http/protobuf');
      expect(existsSync(sandbox.baseDir)).toBe(false);
    } finally {
      sandbox.cleanup();
    }
  });
});

describe('a dead collector', () => {
  let sandbox: Sandbox;
  let deadRunDir: string;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());

  it('costs a run one warning and nothing else', { timeout: 90_000 }, async () => {
    const port = await closedPort();
    const example = sandbox.copyExample();
    const run = await runCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'],
      {
        env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
        timeoutMs: 80_000,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/hello-hank: all codons completed/);
    deadRunDir = executionDirOf(run.stdout);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^! OpenTelemetry: 0 of \\d+ spans reached http://127\\.0\\.0\\.1:${port}/v1/traces`,
      ),
    );
    expect(lines[0]).toContain('The run itself was not affected.');
  });

  it('fails `traces export` with the count and the address', async () => {
    const port = await closedPort();
    const result = await runCli(['traces', 'export', '-e', deadRunDir], {
      env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/OpenTelemetry: 0 of \d+ spans reached/);
    expect(result.stderr).toContain(
      `Is a collector listening at http://127.0.0.1:${port}/v1/traces?`,
    );
  });
});

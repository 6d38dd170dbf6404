import { readFileSync } from 'node:fs';
import type { EventEnvelope } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { GEN_AI, HANKWEAVE } from './attributes.js';
import { startMetrics } from './metrics.js';
import { closedPort, type OtlpReceiver, scrapePrometheus, startOtlpReceiver } from './testing.js';
import { createTraceExporter, describeTraceReport } from './trace-exporter.js';

const fixture = (name: string) => new URL(`../test/fixtures/hello-hank/${name}`, import.meta.url);
const journal: EventEnvelope[] = readFileSync(fixture('events.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const state = JSON.parse(readFileSync(fixture('state.json'), 'utf8'));
const codons: Array<{ codonId: string; finalCost: number; finalTokens: Record<string, number> }> =
  state.runs[0].codons;

describe('traces over OTLP/HTTP to a loopback receiver', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  const trees = new Map<string, unknown>();
  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ] as const)(
    'sends the span tree of a journal with its times, parents and attributes (%s)',
    async (protocol, contentType) => {
      const receiver = await startOtlpReceiver();
      onTestFinished(() => receiver.close());
      const exporter = createTraceExporter({
        target: {
          url: `${receiver.url}/v1/traces`,
          headers: { authorization: 'Bearer t' },
          ...(protocol === 'http/json' ? { protocol } : {}),
        },
        serviceName: 'hankweave-test',
        runAttributes: { [HANKWEAVE.hankName]: 'hello-hank' },
      });
      for (const event of journal) exporter.push(event);
      const report = await exporter.shutdown();
      expect(report).toMatchObject({ failed: 0, dropped: 0 });
      expect(report.traceIds).toHaveLength(1);
      expect(report.exported).toBe(report.spans);
      expect(describeTraceReport(report)).toBeUndefined();
      const spans = receiver.spans();
      expect(spans).toHaveLength(report.spans);
      // protobuf is the default, as OTLP/HTTP's specification says; JSON when asked for.
      expect(receiver.requests().map((request) => request.contentType)).toEqual(
        receiver.requests().map(() => contentType),
      );
      const [run, ...others] = spans.filter((span) => span.name === 'run');
      expect(others).toEqual([]);
      expect(run?.parentSpanId).toBe('');
      expect(run?.traceId).toBe(report.traceIds[0]);
      expect(run?.resource['service.name']).toBe('hankweave-test');
      expect(run?.startMs).toBe(Date.parse(state.runs[0].startTime));
      expect(run?.endMs).toBe(Date.parse(state.runs[0].endTime));
      expect(run?.status.code).toBe(1);
      // One trace, every span's parent in it.
      const ids = new Set(spans.map((span) => span.spanId));
      for (const span of spans) {
        expect(span.traceId).toBe(run?.traceId);
        if (span !== run) expect(ids.has(span.parentSpanId)).toBe(true);
      }
      for (const codon of codons) {
        const span = spans.find(
          (candidate) =>
            candidate.name.startsWith('codon ') &&
            candidate.attributes[HANKWEAVE.codonId] === codon.codonId,
        );
        expect(span?.parentSpanId).toBe(run?.spanId);
        expect(span?.attributes[HANKWEAVE.costUsd]).toBeCloseTo(codon.finalCost, 10);
        expect(span?.attributes[GEN_AI.outputTokens]).toBe(codon.finalTokens.outputTokens);
        const children = spans.filter((child) => child.parentSpanId === span?.spanId);
        expect(children.some((child) => child.name.startsWith('chat ') && child.kind === 3)).toBe(
          true,
        );
        expect(children.some((child) => child.name === 'checkpoint completed')).toBe(true);
      }
      // Both encodings carry the same tree: names, parents by name, attributes, times, status.
      const byId = new Map(spans.map((span) => [span.spanId, span]));
      const tree = spans
        .map((span) => ({
          name: span.name,
          parent: byId.get(span.parentSpanId)?.name ?? '',
          kind: span.kind,
          startMs: span.startMs,
          endMs: span.endMs,
          attributes: span.attributes,
          events: span.events,
          status: span.status.code,
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      trees.set(protocol, tree);
      if (trees.size === 2) expect(trees.get('http/json')).toEqual(trees.get('http/protobuf'));
    },
  );

  it('counts what a dead collector lost, and gives up within the flush deadline', async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const exporter = createTraceExporter({
      target: { url: `http://127.0.0.1:${port}/v1/traces`, headers: {}, timeoutMs: 1000 },
      scheduledDelayMs: 10,
      onFirstFailure: (message) => warnings.push(message),
    });
    for (const event of journal) exporter.push(event);
    const started = Date.now();
    const report = await exporter.shutdown({ timeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(report.exported).toBe(0);
    expect(report.failed + report.dropped).toBe(report.spans);
    expect(describeTraceReport(report)).toMatch(/^OpenTelemetry: 0 of \d+ spans reached/);
    expect(warnings.length).toBeLessThanOrEqual(1);
  });

  it('drops and counts spans beyond its queue instead of waiting', async () => {
    const exporter = createTraceExporter({
      target: { url: `${receiver.url}/v1/traces`, headers: {} },
      maxQueueSize: 5,
      scheduledDelayMs: 60_000,
    });
    for (const event of journal) exporter.push(event);
    const report = await exporter.shutdown();
    expect(report.dropped).toBeGreaterThan(0);
    expect(report.exported + report.dropped).toBe(report.spans);
    expect(describeTraceReport(report)).toContain(`${report.dropped} dropped`);
  });
});

describe('metrics on a Prometheus endpoint, scraped and parsed', () => {
  it('serves codon durations, costs, tokens and failures that add up to state.json', async () => {
    const port = await closedPort();
    const metrics = await startMetrics({ prometheus: { port } });
    expect(metrics.prometheusUrl).toBe(`http://127.0.0.1:${port}/metrics`);
    metrics.observeWorker({
      jobCounts: async () => ({ waiting: 3, active: 1, failed: 2 }),
      running: () => ['job-1'],
    });
    for (const event of journal) metrics.recordEvent(event, { [HANKWEAVE.hankName]: 'hello-hank' });
    metrics.recordEvent({
      id: 'x',
      type: 'codon.completed',
      timestamp: new Date().toISOString(),
      data: {
        codonId: 'y',
        success: false,
        cost: 0,
        duration: 10,
        failureReason: { type: 'timeout' },
      },
    });
    metrics.recordWorkerEvent({ type: 'job.completed', jobId: 'job-0' });
    try {
      const { family, sum } = await scrapePrometheus(metrics.prometheusUrl as string);
      const totalCost = codons.reduce((total, codon) => total + codon.finalCost, 0);
      expect(sum('hankweave_cost_total')).toBeCloseTo(totalCost, 10);
      const tokens = (type: string) =>
        sum('hankweave_tokens_total', (l) => l.gen_ai_token_type === type);
      const stateTokens = (key: string) =>
        codons.reduce((total, codon) => total + (codon.finalTokens[key] ?? 0), 0);
      expect(tokens('output')).toBe(stateTokens('outputTokens'));
      expect(tokens('input')).toBe(stateTokens('inputTokens'));
      expect(tokens('cache_read')).toBe(stateTokens('cacheReadTokens'));
      expect(sum('hankweave_codons_total', (l) => l.hankweave_codon_status === 'completed')).toBe(
        4,
      );
      expect(
        sum('hankweave_codon_failures_total', (l) => l.hankweave_failure_type === 'timeout'),
      ).toBe(1);
      const duration = family('hankweave_codon_duration');
      // The parser folds a histogram's labelled series into one, so only its family is checked
      // here; the OTLP test below checks the counts per codon.
      expect(duration.type).toBe('HISTOGRAM');
      expect(sum('hankweave_queue_jobs', (l) => l.hankweave_job_state === 'waiting')).toBe(3);
      expect(sum('hankweave_worker_running')).toBe(1);
      expect(
        sum('hankweave_worker_jobs_total', (l) => l.hankweave_job_outcome === 'completed'),
      ).toBe(1);
    } finally {
      await metrics.shutdown();
    }
  });

  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ] as const)('pushes the same metrics over OTLP/HTTP (%s)', async (protocol, contentType) => {
    const receiver = await startOtlpReceiver();
    try {
      const metrics = await startMetrics({
        otlp: { url: `${receiver.url}/v1/metrics`, headers: {}, intervalMs: 60_000, protocol },
      });
      for (const event of journal) metrics.recordEvent(event);
      await metrics.shutdown();
      expect(receiver.requests().map((request) => request.contentType)).toEqual([contentType]);
      type Point = { attributes: Array<{ key: string; value: { stringValue?: string } }> };
      type Metric = {
        name: string;
        histogram?: { dataPoints: Array<Point & { count: number; sum: number }> };
        sum?: { dataPoints: Array<Point & { asDouble?: number }> };
      };
      const received: Metric[] = receiver
        .metrics()
        .flatMap(
          (body) =>
            (body as { resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: Metric[] }> }> })
              .resourceMetrics,
        )
        .flatMap((resource) => resource.scopeMetrics)
        .flatMap((scope) => scope.metrics);
      const label = (point: Point, key: string) =>
        point.attributes.find((attribute) => attribute.key === key)?.value.stringValue;
      const duration = received.find((metric) => metric.name === 'hankweave.codon.duration');
      const polish = duration?.histogram?.dataPoints.find(
        (point) => label(point, HANKWEAVE.codonId) === 'polish-pass',
      );
      expect(Number(polish?.count)).toBe(2);
      const seconds = journal
        .filter((event) => event.type === 'codon.completed')
        .map((event) => event.data as { codonId: string; duration: number })
        .filter((data) => data.codonId.startsWith('polish-pass'))
        .reduce((sum, data) => sum + data.duration / 1000, 0);
      expect(polish?.sum).toBeCloseTo(seconds, 6);
      const cost = received.find((metric) => metric.name === 'hankweave.cost');
      const total = (cost?.sum?.dataPoints ?? []).reduce(
        (sum, point) => sum + (point.asDouble ?? 0),
        0,
      );
      expect(total).toBeCloseTo(
        codons.reduce((sum, codon) => sum + codon.finalCost, 0),
        10,
      );
    } finally {
      await receiver.close();
    }
  });
});

import type { EventEnvelope, HankweaveEvent } from '@hankweave/types';
import type {
  Attributes,
  Counter,
  Histogram,
  ObservableGauge,
  ObservableResult,
} from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  type IMetricReader,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { GEN_AI, HANKWEAVE } from './attributes.js';
import type { OtlpTarget } from './config.js';
import { TelemetryError } from './errors.js';

/** The instruments' names (Prometheus shows them with `_` for `.`, counters ending `_total`). */
export const METRIC_NAMES = {
  codonDuration: 'hankweave.codon.duration',
  codons: 'hankweave.codons',
  codonFailures: 'hankweave.codon.failures',
  cost: 'hankweave.cost',
  tokens: 'hankweave.tokens',
  queueJobs: 'hankweave.queue.jobs',
  workerJobs: 'hankweave.worker.jobs',
  workerRunning: 'hankweave.worker.running',
} as const;

/** Options of {@link startMetrics}. */
export interface MetricsOptions {
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  /** Serve `/metrics` in Prometheus' text format on this port (host default 127.0.0.1). */
  prometheus?: { port: number; host?: string };
  /** Push to an OTLP/HTTP collector (`resolveTelemetryConfig(env).metrics`). */
  otlp?: Pick<OtlpTarget, 'url' | 'headers'> & {
    timeoutMs?: number;
    intervalMs?: number;
    /** Default `http/protobuf`. */
    protocol?: OtlpTarget['protocol'];
  };
}

/** A job event of a fleet worker, as `@hankweave/queue` reports it (only what metrics read). */
export interface WorkerEventLike {
  type: string;
  jobId?: string;
}

/** Run and fleet metrics on one MeterProvider; see {@link startMetrics}. */
export interface HankweaveMetrics {
  /** `http://host:port/metrics` when the Prometheus endpoint is on. */
  readonly prometheusUrl: string | undefined;
  /** Counts one runtime event (codon ends, token usage, sentinel costs); never throws. */
  recordEvent(event: HankweaveEvent | EventEnvelope, attributes?: Attributes): void;
  /** Counts one worker event (`job.started`, `job.completed`, `job.failed`, ...). */
  recordWorkerEvent(event: WorkerEventLike): void;
  /**
   * Reports a worker's queue at every collection (a scrape, an OTLP push): its jobs by state
   * and the jobs this worker runs now.
   */
  observeWorker(worker: {
    jobCounts(): Promise<Record<string, number>>;
    running(): readonly string[];
  }): void;
  /** Pushes the last OTLP export (bounded by `timeoutMs`, default 3000) and closes the server. */
  shutdown(options?: { timeoutMs?: number }): Promise<void>;
}

const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const obj = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** A loop iteration's codon id without its `#n` (one series per codon, not per iteration). */
const baseCodonId = (codonId: unknown) =>
  typeof codonId === 'string' ? codonId.replace(/#\d+$/, '') : '';

const WORKER_OUTCOMES: Record<string, string> = {
  'job.started': 'started',
  'job.completed': 'completed',
  'job.failed': 'failed',
  'job.abandoned': 'abandoned',
  'job.delayed': 'delayed',
};

/**
 * Starts a MeterProvider with the readers asked for: a Prometheus endpoint (opt-in, loopback by
 * default) and a periodic OTLP/HTTP push. Instruments: codon durations (histogram, seconds),
 * codons by status, failures by kind (`hankweave.failure.type`), cost (USD, agent and sentinel),
 * tokens by `gen_ai.token.type` and model, and for workers queue jobs by state, job outcomes and
 * the jobs running.
 *
 * @throws {TelemetryError} TELEMETRY_INVALID when the Prometheus port cannot be listened on.
 */
export async function startMetrics(options: MetricsOptions): Promise<HankweaveMetrics> {
  const readers: IMetricReader[] = [];
  let prometheus: PrometheusExporter | undefined;
  let prometheusUrl: string | undefined;
  if (options.prometheus) {
    const host = options.prometheus.host ?? '127.0.0.1';
    prometheus = new PrometheusExporter({
      host,
      port: options.prometheus.port,
      preventServerStart: true,
    });
    try {
      await prometheus.startServer();
    } catch (cause) {
      throw new TelemetryError(
        'TELEMETRY_INVALID',
        `cannot serve metrics on ${host}:${options.prometheus.port}: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause, details: { host, port: options.prometheus.port } },
      );
    }
    prometheusUrl = `http://${host.includes(':') ? `[${host}]` : host}:${options.prometheus.port}/metrics`;
    readers.push(prometheus);
  }
  let periodic: PeriodicExportingMetricReader | undefined;
  if (options.otlp) {
    const interval = options.otlp.intervalMs ?? 60_000;
    const timeout = Math.min(options.otlp.timeoutMs ?? 10_000, interval);
    periodic = new PeriodicExportingMetricReader({
      exporter: new (options.otlp.protocol === 'http/json'
        ? JsonMetricExporter
        : ProtobufMetricExporter)({
        url: options.otlp.url,
        headers: options.otlp.headers,
        timeoutMillis: timeout,
      }),
      exportIntervalMillis: interval,
      exportTimeoutMillis: timeout,
    });
    readers.push(periodic);
  }
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      ...options.resourceAttributes,
      [ATTR_SERVICE_NAME]: options.serviceName ?? 'hankweave',
    }),
    readers,
  });
  const meter = provider.getMeter('@hankweave/telemetry');
  const codonDuration: Histogram = meter.createHistogram(METRIC_NAMES.codonDuration, {
    unit: 's',
    description: 'Wall time of a codon attempt, from its start to its end',
    // Codons take seconds to hours, not the SDK's default milliseconds-sized buckets.
    advice: {
      explicitBucketBoundaries: [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400],
    },
  });
  const codons: Counter = meter.createCounter(METRIC_NAMES.codons, {
    description: 'Codon attempts that ended, by hankweave.codon.status',
  });
  const failures: Counter = meter.createCounter(METRIC_NAMES.codonFailures, {
    description: 'Failed codon attempts, by hankweave.failure.type',
  });
  const cost: Counter = meter.createCounter(METRIC_NAMES.cost, {
    unit: 'USD',
    description: 'Money spent on models, by hankweave.cost.kind (agent, sentinel) and model',
  });
  const tokens: Counter = meter.createCounter(METRIC_NAMES.tokens, {
    unit: '{token}',
    description:
      'Tokens by gen_ai.token.type (input: uncached input, cache_read, cache_creation, output)',
  });
  const workerJobs: Counter = meter.createCounter(METRIC_NAMES.workerJobs, {
    description: 'Jobs this worker started, completed, failed, abandoned or delayed',
  });
  const running: ObservableGauge = meter.createObservableGauge(METRIC_NAMES.workerRunning, {
    description: 'Jobs this worker is running now',
  });
  const queueJobs: ObservableGauge = meter.createObservableGauge(METRIC_NAMES.queueJobs, {
    description: 'Jobs in the queue by BullMQ state',
  });
  const workers: Array<Parameters<HankweaveMetrics['observeWorker']>[0]> = [];
  running.addCallback((result: ObservableResult) => {
    for (const worker of workers) result.observe(worker.running().length);
  });
  queueJobs.addCallback(async (result: ObservableResult) => {
    for (const worker of workers) {
      try {
        const counts = await worker.jobCounts();
        for (const [state, count] of Object.entries(counts)) {
          result.observe(count, { 'hankweave.job.state': state });
        }
      } catch {
        // Redis away for a moment: no observation this time, never a failed scrape.
      }
    }
  });

  return {
    prometheusUrl,
    recordEvent(event, attributes = {}) {
      try {
        const data = obj(event.data);
        if (event.type === 'codon.completed') {
          const reason = obj(data.failureReason);
          const success = data.success === true;
          const status = success ? 'completed' : 'failed';
          const base = { ...attributes, [HANKWEAVE.codonId]: baseCodonId(data.codonId) };
          codonDuration.record(num(data.duration) / 1000, {
            ...base,
            [HANKWEAVE.codonStatus]: status,
          });
          codons.add(1, { ...base, [HANKWEAVE.codonStatus]: status });
          if (!success) {
            failures.add(1, {
              ...base,
              [HANKWEAVE.failureType]: typeof reason.type === 'string' ? reason.type : 'unknown',
              [HANKWEAVE.failureInterrupted]: reason.interrupted === true,
            });
          }
        } else if (event.type === 'token.usage') {
          const model = typeof data.modelId === 'string' ? data.modelId : 'unknown';
          const base = { ...attributes, [GEN_AI.requestModel]: model };
          cost.add(num(data.totalCost), { ...base, 'hankweave.cost.kind': 'agent' });
          const types = {
            input: num(data.inputTokens),
            output: num(data.outputTokens),
            cache_read: num(data.cacheReadTokens),
            cache_creation: num(data.cacheCreationTokens),
          };
          for (const [type, count] of Object.entries(types)) {
            tokens.add(count, { ...base, [GEN_AI.tokenType]: type });
          }
        } else if (event.type === 'sentinel.output') {
          const tokensUsed = obj(data.tokens);
          const base = { ...attributes, [HANKWEAVE.sentinelId]: String(data.sentinelId ?? '') };
          cost.add(num(data.cost), { ...base, 'hankweave.cost.kind': 'sentinel' });
          tokens.add(num(tokensUsed.input), { ...base, [GEN_AI.tokenType]: 'input' });
          tokens.add(num(tokensUsed.output), { ...base, [GEN_AI.tokenType]: 'output' });
        }
      } catch {
        // Metrics never break a run.
      }
    },
    recordWorkerEvent(event) {
      const outcome = WORKER_OUTCOMES[event.type];
      if (outcome === undefined) return;
      workerJobs.add(1, { 'hankweave.job.outcome': outcome });
    },
    observeWorker(worker) {
      workers.push(worker);
    },
    async shutdown({ timeoutMs = 3000 } = {}) {
      const done = provider.shutdown().catch(() => undefined);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        void done.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

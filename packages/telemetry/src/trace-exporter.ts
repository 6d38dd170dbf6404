import type { EventEnvelope, HankweaveEvent } from '@hankweave/types';
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { OtlpTarget } from './config.js';
import { type SpanAttributes, SpanMapper, type SpanRecord } from './span-mapper.js';

/** Options of {@link createTraceExporter}. */
export interface TraceExporterOptions {
  /** Where spans go (from `resolveTelemetryConfig(env).traces`, or your own). */
  target: Pick<OtlpTarget, 'url' | 'headers'> & {
    timeoutMs?: number;
    /** Default `http/protobuf`. */
    protocol?: OtlpTarget['protocol'];
  };
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  /** Attributes of every run span (hank name, execution directory), or a function giving them. */
  runAttributes?: SpanAttributes | (() => SpanAttributes);
  /** Prompts' answers and tool payloads on spans (default false: they may hold secrets). */
  captureContent?: boolean;
  /**
   * Spans waiting for export at most; beyond it spans are dropped and counted, never waited
   * for (default 2048, BatchSpanProcessor's). A run never blocks on its collector.
   */
  maxQueueSize?: number;
  /** Spans per OTLP request (default 512). */
  maxExportBatchSize?: number;
  /** How long spans wait for a batch to fill (default 1000 ms). */
  scheduledDelayMs?: number;
  /** Called once, at the first failed export (a dead collector), with a one-line message. */
  onFirstFailure?: (message: string) => void;
  /** Replaces the OTLP exporter (benchmarks, tests of the accounting). */
  exporter?: SpanExporter;
}

/** What became of the spans, for the one line a run prints at its end. */
export interface TraceExportReport {
  url: string;
  /** Spans the mapping produced. */
  spans: number;
  /** Spans the collector accepted. */
  exported: number;
  /** Spans in exports that failed (collector down, refused, timed out). */
  failed: number;
  /** Spans dropped because the queue was full, or still queued when the flush deadline passed. */
  dropped: number;
  /** The first export error's message. */
  firstError: string | undefined;
  /** The trace id of each root span (one per run, and per rollback outside a run), hex. */
  traceIds: string[];
}

/** Turns events into spans and sends them; see {@link createTraceExporter}. */
export interface TraceExporter {
  /** Maps one event; never throws, never waits. */
  push(event: HankweaveEvent | EventEnvelope): void;
  /** The counts so far. */
  report(): TraceExportReport;
  /**
   * Ends the open spans (at their last event, marked incomplete), sends what is queued and
   * closes. Waits at most `timeoutMs` (default 3000) for the collector (500 ms when its last
   * export failed), then gives up and counts what was not sent as dropped.
   */
  shutdown(options?: { timeoutMs?: number }): Promise<TraceExportReport>;
}

/** Counts what the wrapped exporter accepts and what fails; tells the processor's queue. */
class CountingExporter implements SpanExporter {
  exported = 0;
  failed = 0;
  firstError: string | undefined;
  /** The newest export failed: the collector is down (until one succeeds again). */
  down = false;
  constructor(
    private readonly inner: SpanExporter,
    private readonly taken: (count: number) => void,
    private readonly onFailure: (message: string) => void,
  ) {}
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.taken(spans.length);
    try {
      this.inner.export(spans, (result) => {
        this.down = result.code !== ExportResultCode.SUCCESS;
        if (result.code === ExportResultCode.SUCCESS) this.exported += spans.length;
        else {
          this.failed += spans.length;
          const message = result.error?.message ?? 'export failed';
          if (this.firstError === undefined) {
            this.firstError = message;
            this.onFailure(message);
          }
        }
        resultCallback(result);
      });
    } catch (error) {
      this.failed += spans.length;
      this.firstError ??= error instanceof Error ? error.message : String(error);
      resultCallback({ code: ExportResultCode.FAILED });
    }
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * A BatchSpanProcessor behind a bound we count ourselves: the SDK's processor drops spans when
 * its queue is full but only logs it, and a run must report how many it lost.
 */
class BoundedProcessor implements SpanProcessor {
  queued = 0;
  dropped = 0;
  constructor(
    private readonly inner: SpanProcessor,
    private readonly max: number,
  ) {}
  onStart(span: Span & ReadableSpan, parentContext: Context): void {
    (this.inner.onStart as (span: unknown, context: Context) => void)(span, parentContext);
  }
  onEnd(span: ReadableSpan): void {
    if (this.queued >= this.max) {
      this.dropped++;
      return;
    }
    this.queued++;
    this.inner.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** How long `shutdown` waits for a collector whose last export failed. */
const DOWN_FLUSH_MS = 500;

const STATUS = {
  unset: SpanStatusCode.UNSET,
  ok: SpanStatusCode.OK,
  error: SpanStatusCode.ERROR,
} as const;

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve('timeout');
      },
    );
  });

/**
 * Sends hankweave's events as OpenTelemetry traces with the official SDK: a
 * `BasicTracerProvider`, a bounded `BatchSpanProcessor` and the OTLP/HTTP exporter. Span times
 * are the events' timestamps, so a journal read long after its run gives the run's real times.
 */
export function createTraceExporter(options: TraceExporterOptions): TraceExporter {
  const maxQueueSize = options.maxQueueSize ?? 2048;
  const exporter =
    options.exporter ??
    new (options.target.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter)({
      url: options.target.url,
      headers: options.target.headers,
      timeoutMillis: options.target.timeoutMs ?? 10_000,
    });
  let processor: BoundedProcessor | undefined;
  let firstFailureTold = false;
  const counting = new CountingExporter(
    exporter,
    (count) => {
      if (processor) processor.queued = Math.max(0, processor.queued - count);
    },
    (message) => {
      if (firstFailureTold) return;
      firstFailureTold = true;
      options.onFirstFailure?.(
        `could not send spans to ${options.target.url}: ${message} (the run goes on)`,
      );
    },
  );
  processor = new BoundedProcessor(
    new BatchSpanProcessor(counting, {
      // Our bound drops first; the SDK's queue never fills.
      maxQueueSize: maxQueueSize + 1,
      maxExportBatchSize: Math.min(options.maxExportBatchSize ?? 512, maxQueueSize),
      scheduledDelayMillis: options.scheduledDelayMs ?? 1000,
      exportTimeoutMillis: (options.target.timeoutMs ?? 10_000) + 1000,
    }),
    maxQueueSize,
  );
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      ...options.resourceAttributes,
      [ATTR_SERVICE_NAME]: options.serviceName ?? 'hankweave',
    }),
    spanProcessors: [processor],
    // Every span of the tree is kept: sampling a run's spans would cut its tree.
    sampler: new AlwaysOnSampler(),
  });
  const tracer = provider.getTracer('@hankweave/telemetry');
  const live = new Map<string, Span>();
  const traceIds: string[] = [];
  let spans = 0;

  const mapper = new SpanMapper({
    captureContent: options.captureContent === true,
    ...(options.runAttributes ? { runAttributes: options.runAttributes } : {}),
    onStart(record: SpanRecord) {
      const parent = record.parentId !== undefined ? live.get(record.parentId) : undefined;
      const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
      const span = tracer.startSpan(
        record.name,
        {
          kind: record.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          startTime: new Date(record.startMs),
          attributes: record.attributes,
          root: parent === undefined,
        },
        context,
      );
      live.set(record.id, span);
      if (parent === undefined) traceIds.push(span.spanContext().traceId);
    },
    onEnd(record: SpanRecord) {
      const span = live.get(record.id);
      if (!span) return;
      live.delete(record.id);
      spans++;
      span.setAttributes(record.attributes);
      for (const event of record.events) {
        span.addEvent(event.name, event.attributes, new Date(event.timeMs));
      }
      if (record.status.code !== 'unset') {
        span.setStatus({
          code: STATUS[record.status.code],
          ...(record.status.message ? { message: record.status.message } : {}),
        });
      }
      span.end(new Date(record.endMs ?? record.startMs));
    },
  });

  const report = (): TraceExportReport => ({
    url: options.target.url,
    spans,
    exported: counting.exported,
    failed: counting.failed,
    dropped: processor?.dropped ?? 0,
    firstError: counting.firstError,
    traceIds: [...traceIds],
  });
  let closed: Promise<TraceExportReport> | undefined;
  return {
    push(event) {
      if (closed) return;
      try {
        mapper.push(event);
      } catch {
        // A malformed event costs its spans, never the run.
      }
    },
    report,
    shutdown({ timeoutMs = 3000 } = {}) {
      closed ??= (async () => {
        try {
          mapper.finish();
        } catch {
          // As in push.
        }
        // A collector whose last export failed gets a short last chance, not the whole deadline.
        const deadline = counting.down ? Math.min(timeoutMs, DOWN_FLUSH_MS) : timeoutMs;
        const flushed = await within(provider.forceFlush(), deadline);
        void within(provider.shutdown(), 100);
        const result = report();
        // Whatever is still queued (or in an export still running) was not delivered.
        const unsent = result.spans - result.exported - result.failed - result.dropped;
        return flushed === 'timeout' || unsent > 0
          ? { ...result, dropped: result.dropped + Math.max(0, unsent) }
          : result;
      })();
      return closed;
    },
  };
}

/** The one line a run prints about its traces (undefined when every span was delivered). */
export function describeTraceReport(report: TraceExportReport): string | undefined {
  const lost = report.failed + report.dropped;
  if (lost === 0) return undefined;
  const parts = [
    `${report.failed} in failed exports${report.firstError ? ` (${report.firstError})` : ''}`,
    `${report.dropped} dropped (queue full or not sent in time)`,
  ];
  return `OpenTelemetry: ${report.exported} of ${report.spans} spans reached ${report.url}; ${parts.join(', ')}.`;
}

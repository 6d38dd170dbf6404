import type { HankWorker, WorkerEvent } from '@hankweave/queue';
import type { HankweaveEvent } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';
import { OTEL_FIX_HINT, otlpEndpointSet } from './otel-env.js';

/**
 * The telemetry of `hankweave worker`: its metrics on a Prometheus endpoint (opt-in) and/or
 * pushed over OTLP, and, when an OTLP traces endpoint is set, one trace per job's run (the same
 * span tree `hankweave <hank>` sends, with the job's id on the run span).
 */
export interface WorkerTelemetry {
  /** The line the worker prints when it starts (where the metrics and traces go). */
  readonly description: string;
  onWorkerEvent(event: WorkerEvent): void;
  onRuntimeEvent(jobId: string, event: HankweaveEvent): void;
  /** Adds the queue's job counts and the running jobs (read at each scrape or push). */
  observe(worker: HankWorker): void;
  /** Flushes every job's trace still open and stops the metrics. */
  close(): Promise<void>;
}

/** The events after which a job's run on this worker is over (its trace is sent). */
const JOB_ENDS = new Set<WorkerEvent['type']>([
  'job.completed',
  'job.failed',
  'job.abandoned',
  'job.delayed',
]);

/**
 * Starts the worker's telemetry when `--metrics-port` is given or an OTLP endpoint is set; else
 * undefined, and the OpenTelemetry SDK is not loaded. `warn` gets the one line about a job whose
 * spans were lost (a dead collector, a full queue); the job itself is never affected.
 *
 * @throws {CliError} CLI_USAGE for a bad port, a port already taken or a malformed endpoint.
 */
export async function startWorkerTelemetry(
  options: { metricsPort?: string; metricsHost?: string },
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void = () => {},
): Promise<WorkerTelemetry | undefined> {
  const port = options.metricsPort === undefined ? undefined : Number(options.metricsPort);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535)) {
    throw new CliError(
      'CLI_USAGE',
      `--metrics-port expects a port from 1 to 65535, got ${options.metricsPort}`,
      "Example: --metrics-port 9464 (the Prometheus exporters' usual port).",
    );
  }
  if (port === undefined && !otlpEndpointSet(env)) return undefined;
  const telemetry = await import('@hankweave/telemetry');
  let metrics: Awaited<ReturnType<typeof telemetry.startMetrics>> | undefined;
  let config: ReturnType<typeof telemetry.resolveTelemetryConfig>;
  try {
    config = telemetry.resolveTelemetryConfig(env);
    if (port === undefined && !config.metrics && !config.traces) return undefined;
    if (port !== undefined || config.metrics) {
      metrics = await telemetry.startMetrics({
        serviceName: config.serviceName,
        resourceAttributes: config.resourceAttributes,
        ...(port !== undefined
          ? { prometheus: { port, host: options.metricsHost ?? '127.0.0.1' } }
          : {}),
        ...(config.metrics ? { otlp: config.metrics } : {}),
      });
    }
  } catch (error) {
    if (telemetry.TelemetryError.is(error)) {
      throw new CliError(
        'CLI_USAGE',
        error.message,
        port !== undefined
          ? 'Pick a free port with --metrics-port, or fix the OTEL_EXPORTER_OTLP_* variable named.'
          : OTEL_FIX_HINT,
      );
    }
    throw error;
  }
  const tracesTarget = config.traces;
  const jobs = new Map<
    string,
    {
      hankName?: string;
      executionDir?: string;
      traces?: ReturnType<typeof telemetry.createTraceExporter>;
    }
  >();
  const flushing = new Set<Promise<void>>();
  const jobOf = (jobId: string) => {
    let job = jobs.get(jobId);
    if (job === undefined) {
      job = {};
      jobs.set(jobId, job);
    }
    return job;
  };
  const tracesOf = (jobId: string) => {
    const job = jobOf(jobId);
    if (job.traces === undefined && tracesTarget !== undefined) {
      job.traces = telemetry.createTraceExporter({
        target: tracesTarget,
        serviceName: config.serviceName,
        resourceAttributes: config.resourceAttributes,
        captureContent: config.captureContent,
        // Read when the run span opens: job.started (name, directory) comes before the run's
        // first event, but a resumed job may say less.
        runAttributes: () => ({
          [telemetry.HANKWEAVE.jobId]: jobId,
          ...(job.hankName !== undefined ? { [telemetry.HANKWEAVE.hankName]: job.hankName } : {}),
          ...(job.executionDir !== undefined
            ? { [telemetry.HANKWEAVE.executionDir]: job.executionDir }
            : {}),
        }),
      });
    }
    return job.traces;
  };
  const endJob = (jobId: string) => {
    const traces = jobs.get(jobId)?.traces;
    jobs.delete(jobId);
    if (traces === undefined) return;
    const flush = traces.shutdown().then(
      (report) => {
        const lost = telemetry.describeTraceReport(report);
        if (lost) warn(`job ${jobId}: ${lost} The job itself was not affected.`);
      },
      () => undefined,
    );
    flushing.add(flush);
    void flush.finally(() => flushing.delete(flush));
  };
  const where = [
    metrics?.prometheusUrl ? `Prometheus metrics at ${metrics.prometheusUrl}` : undefined,
    config.metrics ? `metrics to ${config.metrics.url}` : undefined,
    tracesTarget ? `traces to ${tracesTarget.url}` : undefined,
  ].filter(Boolean);
  return {
    description: `OpenTelemetry: ${where.join(', ')}`,
    onWorkerEvent(event) {
      if (event.type === 'job.started') {
        const job = jobOf(event.jobId);
        job.hankName = event.hankName;
        job.executionDir = event.executionDir;
      }
      metrics?.recordWorkerEvent(event);
      if (JOB_ENDS.has(event.type) && 'jobId' in event) endJob(event.jobId);
    },
    onRuntimeEvent(jobId, event) {
      tracesOf(jobId)?.push(event);
      const hankName = jobs.get(jobId)?.hankName;
      metrics?.recordEvent(
        event,
        hankName !== undefined ? { [telemetry.HANKWEAVE.hankName]: hankName } : {},
      );
    },
    observe(worker) {
      metrics?.observeWorker(worker);
    },
    async close() {
      for (const jobId of [...jobs.keys()]) endJob(jobId);
      await Promise.all([...flushing]);
      await metrics?.shutdown();
    },
  };
}

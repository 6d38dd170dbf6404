import type { HankWorker, WorkerEvent } from '@hankweave/queue';
import type { HankweaveEvent } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';
import { otlpEndpointSet } from './otel-env.js';

/** The metrics of `hankweave worker`: a Prometheus endpoint (opt-in) and/or an OTLP push. */
export interface WorkerMetrics {
  /** The line the worker prints when it starts (where the metrics are). */
  readonly description: string;
  onWorkerEvent(event: WorkerEvent): void;
  onRuntimeEvent(jobId: string, event: HankweaveEvent): void;
  /** Adds the queue's job counts and the running jobs (read at each scrape or push). */
  observe(worker: HankWorker): void;
  close(): Promise<void>;
}

/**
 * Starts the worker's metrics when `--metrics-port` is given or an OTLP endpoint is set; else
 * undefined, and the OpenTelemetry SDK is not loaded.
 *
 * @throws {CliError} CLI_USAGE for a bad port, a port already taken or a malformed endpoint.
 */
export async function startWorkerMetrics(
  options: { metricsPort?: string; metricsHost?: string },
  env: NodeJS.ProcessEnv,
): Promise<WorkerMetrics | undefined> {
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
  let metrics: Awaited<ReturnType<typeof telemetry.startMetrics>>;
  let otlpUrl: string | undefined;
  try {
    const config = telemetry.resolveTelemetryConfig(env);
    otlpUrl = config.metrics?.url;
    if (port === undefined && !config.metrics) return undefined;
    metrics = await telemetry.startMetrics({
      serviceName: config.serviceName,
      resourceAttributes: config.resourceAttributes,
      ...(port !== undefined
        ? { prometheus: { port, host: options.metricsHost ?? '127.0.0.1' } }
        : {}),
      ...(config.metrics ? { otlp: config.metrics } : {}),
    });
  } catch (error) {
    if (telemetry.TelemetryError.is(error)) {
      throw new CliError(
        'CLI_USAGE',
        error.message,
        port !== undefined
          ? 'Pick a free port with --metrics-port, or fix the OTEL_EXPORTER_OTLP_* variable named.'
          : 'Set it to the OTLP/HTTP address of a collector, e.g. http://localhost:4318.',
      );
    }
    throw error;
  }
  const hankNames = new Map<string, string>();
  const where = [
    metrics.prometheusUrl ? `Prometheus metrics at ${metrics.prometheusUrl}` : undefined,
    otlpUrl ? `metrics to ${otlpUrl}` : undefined,
  ].filter(Boolean);
  return {
    description: `OpenTelemetry: ${where.join(', ')}`,
    onWorkerEvent(event) {
      if (event.type === 'job.started') hankNames.set(event.jobId, event.hankName);
      metrics.recordWorkerEvent(event);
      if (
        event.type === 'job.completed' ||
        event.type === 'job.failed' ||
        event.type === 'job.abandoned'
      )
        hankNames.delete(event.jobId);
    },
    onRuntimeEvent(jobId, event) {
      const hankName = hankNames.get(jobId);
      metrics.recordEvent(event, hankName !== undefined ? { 'hankweave.hank.name': hankName } : {});
    },
    observe(worker) {
      metrics.observeWorker(worker);
    },
    close: () => metrics.shutdown(),
  };
}

import type { HankweaveEvent } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';
import { OTEL_FIX_HINT, otlpEndpointSet } from './otel-env.js';

/** What `hankweave <hank>` does with its events when an OTLP endpoint is set. */
export interface RunTelemetry {
  /** Where the traces go, for the line the run prints when it starts. */
  readonly description: string;
  /** Maps one runtime event to spans and metrics: synchronous, no I/O, never throws. */
  onEvent(event: HankweaveEvent): void;
  /**
   * Sends what is left, waiting at most `timeoutMs` for the collector; resolves with the one
   * warning to print when spans were lost (a dead collector, a full queue), else undefined.
   */
  finish(timeoutMs?: number): Promise<string | undefined>;
}

/**
 * Live export of a run (issue 37): traces over OTLP/HTTP, and the run's metrics pushed over OTLP,
 * when the standard `OTEL_EXPORTER_OTLP_*ENDPOINT` variables say so; undefined (and the SDK not
 * even loaded) when none is set.
 *
 * @throws {CliError} CLI_USAGE when an endpoint variable is not an http(s) URL.
 */
export async function startRunTelemetry(
  env: NodeJS.ProcessEnv,
  run: { hankName: string; executionDir: () => string | undefined },
): Promise<RunTelemetry | undefined> {
  if (!otlpEndpointSet(env)) return undefined;
  const telemetry = await import('@hankweave/telemetry');
  let config: ReturnType<typeof telemetry.resolveTelemetryConfig>;
  try {
    config = telemetry.resolveTelemetryConfig(env);
  } catch (error) {
    if (telemetry.TelemetryError.is(error)) {
      throw new CliError('CLI_USAGE', error.message, OTEL_FIX_HINT);
    }
    throw error;
  }
  if (!config.traces && !config.metrics) return undefined;
  const runAttributes = () => {
    const dir = run.executionDir();
    return {
      [telemetry.HANKWEAVE.hankName]: run.hankName,
      ...(dir !== undefined ? { [telemetry.HANKWEAVE.executionDir]: dir } : {}),
    };
  };
  const traces = config.traces
    ? telemetry.createTraceExporter({
        target: config.traces,
        serviceName: config.serviceName,
        resourceAttributes: config.resourceAttributes,
        captureContent: config.captureContent,
        runAttributes,
      })
    : undefined;
  const metrics = config.metrics
    ? await telemetry.startMetrics({
        serviceName: config.serviceName,
        resourceAttributes: config.resourceAttributes,
        otlp: config.metrics,
      })
    : undefined;
  const metricAttributes = { [telemetry.HANKWEAVE.hankName]: run.hankName };
  const where = [
    config.traces ? `traces to ${config.traces.url}` : undefined,
    config.metrics ? `metrics to ${config.metrics.url}` : undefined,
  ].filter(Boolean);
  return {
    description: `OpenTelemetry: ${where.join(', ')}${config.captureContent ? ' (content captured)' : ''}`,
    onEvent(event) {
      traces?.push(event);
      metrics?.recordEvent(event, metricAttributes);
    },
    async finish(timeoutMs = 3000) {
      const [report] = await Promise.all([
        traces?.shutdown({ timeoutMs }),
        metrics?.shutdown({ timeoutMs }),
      ]);
      const lost = report ? telemetry.describeTraceReport(report) : undefined;
      return lost ? `${lost} The run itself was not affected.` : undefined;
    },
  };
}

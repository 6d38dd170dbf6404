import { TelemetryError } from './errors.js';

/** The variables this package reads: OpenTelemetry's standard ones and one of ours. */
export const TELEMETRY_ENV = {
  endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  metricsEndpoint: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  headers: 'OTEL_EXPORTER_OTLP_HEADERS',
  tracesHeaders: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  metricsHeaders: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  timeout: 'OTEL_EXPORTER_OTLP_TIMEOUT',
  serviceName: 'OTEL_SERVICE_NAME',
  resourceAttributes: 'OTEL_RESOURCE_ATTRIBUTES',
  sdkDisabled: 'OTEL_SDK_DISABLED',
  tracesExporter: 'OTEL_TRACES_EXPORTER',
  metricsExporter: 'OTEL_METRICS_EXPORTER',
  metricExportInterval: 'OTEL_METRIC_EXPORT_INTERVAL',
  captureContent: 'HANKWEAVE_OTEL_CAPTURE_CONTENT',
} as const;

/** Where one signal (traces or metrics) goes over OTLP/HTTP. */
export interface OtlpTarget {
  /** The full URL (`…/v1/traces`, `…/v1/metrics`). */
  url: string;
  headers: Record<string, string>;
  /** The variable the URL came from, for messages. */
  source: string;
  timeoutMs: number;
}

/** What the environment says about exporting, resolved once. */
export interface TelemetryConfig {
  /** Undefined when traces are off (no endpoint, `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER=none`). */
  traces: OtlpTarget | undefined;
  metrics: (OtlpTarget & { intervalMs: number }) | undefined;
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, decoded. */
  resourceAttributes: Record<string, string>;
  /** `HANKWEAVE_OTEL_CAPTURE_CONTENT=1`: prompts' answers and tool payloads go on spans. */
  captureContent: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** `key1=value1,key2=value2` with percent-encoded values (the W3C Baggage form the spec uses). */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const raw = part.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A value that is not valid percent-encoding is taken as written.
    }
    if (key !== '') out[key] = value;
  }
  return out;
}

function checkUrl(url: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new TelemetryError('TELEMETRY_INVALID', `${source} is not a URL: ${url}`, {
      cause,
      details: { variable: source },
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TelemetryError(
      'TELEMETRY_INVALID',
      `${source} must be an http(s) URL (OTLP/HTTP), got ${url}`,
      { details: { variable: source } },
    );
  }
  return url;
}

const truthy = (value: string | undefined) =>
  value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());

function target(
  env: NodeJS.ProcessEnv,
  signal: 'traces' | 'metrics',
): Omit<OtlpTarget, 'timeoutMs'> | undefined {
  const own = signal === 'traces' ? TELEMETRY_ENV.tracesEndpoint : TELEMETRY_ENV.metricsEndpoint;
  const ownHeaders =
    signal === 'traces' ? TELEMETRY_ENV.tracesHeaders : TELEMETRY_ENV.metricsHeaders;
  const headers = {
    ...parseKeyValueList(env[TELEMETRY_ENV.headers]),
    ...parseKeyValueList(env[ownHeaders]),
  };
  const specific = env[own]?.trim();
  // The signal's own variable is used as it is; the general one gets the signal's path (spec).
  if (specific) return { url: checkUrl(specific, own), headers, source: own };
  const base = env[TELEMETRY_ENV.endpoint]?.trim();
  if (!base) return undefined;
  checkUrl(base, TELEMETRY_ENV.endpoint);
  const url = `${base.replace(/\/+$/, '')}/v1/${signal}`;
  return { url, headers, source: TELEMETRY_ENV.endpoint };
}

/**
 * Reads the standard `OTEL_*` variables: exporting is off unless an endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
 * `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` for one signal), and off again with
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` / `OTEL_METRICS_EXPORTER=none`.
 *
 * @throws {TelemetryError} TELEMETRY_INVALID when an endpoint is set but is no http(s) URL.
 */
export function resolveTelemetryConfig(env: NodeJS.ProcessEnv = process.env): TelemetryConfig {
  const disabled = truthy(env[TELEMETRY_ENV.sdkDisabled]);
  const timeoutMs = Number(env[TELEMETRY_ENV.timeout]);
  const timeout = Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
  const tracesOff = env[TELEMETRY_ENV.tracesExporter]?.trim() === 'none';
  const metricsOff = env[TELEMETRY_ENV.metricsExporter]?.trim() === 'none';
  const traces = disabled || tracesOff ? undefined : target(env, 'traces');
  const metrics = disabled || metricsOff ? undefined : target(env, 'metrics');
  const interval = Number(env[TELEMETRY_ENV.metricExportInterval]);
  const resourceAttributes = parseKeyValueList(env[TELEMETRY_ENV.resourceAttributes]);
  return {
    traces: traces ? { ...traces, timeoutMs: timeout } : undefined,
    metrics: metrics
      ? {
          ...metrics,
          timeoutMs: timeout,
          intervalMs: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
        }
      : undefined,
    serviceName:
      env[TELEMETRY_ENV.serviceName]?.trim() || resourceAttributes['service.name'] || 'hankweave',
    resourceAttributes,
    captureContent: truthy(env[TELEMETRY_ENV.captureContent]),
  };
}

import { TELEMETRY_ENV } from './env.js';
import { TelemetryError } from './errors.js';

/**
 * OTLP/HTTP's two encodings: protobuf (the specification's default, what every collector and
 * vendor endpoint takes) and JSON. gRPC is not offered: its variables are refused, not ignored.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where one signal (traces or metrics) goes over OTLP/HTTP. */
export interface OtlpTarget {
  /** The full URL (`…/v1/traces`, `…/v1/metrics`). */
  url: string;
  headers: Record<string, string>;
  /** The encoding (`OTEL_EXPORTER_OTLP_[TRACES_|METRICS_]PROTOCOL`; default `http/protobuf`). */
  protocol: OtlpProtocol;
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

/** The signal's protocol: its own variable, else the general one, else `http/protobuf`. */
function protocolOf(env: NodeJS.ProcessEnv, signal: 'traces' | 'metrics'): OtlpProtocol {
  const own = signal === 'traces' ? TELEMETRY_ENV.tracesProtocol : TELEMETRY_ENV.metricsProtocol;
  const variable = env[own]?.trim() ? own : TELEMETRY_ENV.protocol;
  const value = env[variable]?.trim() ?? '';
  if (value === '' || value === 'http/protobuf') return 'http/protobuf';
  if (value === 'http/json') return 'http/json';
  throw new TelemetryError(
    'TELEMETRY_INVALID',
    value === 'grpc'
      ? `${variable}=grpc is not supported: hankweave exports over OTLP/HTTP; set it to http/protobuf (a collector takes it on port 4318) or unset it`
      : `${variable} must be http/protobuf or http/json, got ${JSON.stringify(value)}`,
    { details: { variable } },
  );
}

/**
 * `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER`: a comma-separated list of which only `otlp`
 * (the default) and `none` are offered here; another exporter (console, zipkin, prometheus) is
 * refused rather than silently replaced by OTLP. True when the signal is off.
 */
function exporterOff(env: NodeJS.ProcessEnv, variable: string, hint: string): boolean {
  const names = (env[variable] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => name !== 'otlp' && name !== 'none');
  if (unknown.length > 0) {
    throw new TelemetryError(
      'TELEMETRY_INVALID',
      `${variable}=${names.join(',')}: only otlp and none are supported (${hint})`,
      { details: { variable } },
    );
  }
  return names.includes('none') && !names.includes('otlp');
}

const truthy = (value: string | undefined) =>
  value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());

function target(
  env: NodeJS.ProcessEnv,
  signal: 'traces' | 'metrics',
): Omit<OtlpTarget, 'timeoutMs' | 'protocol'> | undefined {
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
 * The encoding is `OTEL_EXPORTER_OTLP_PROTOCOL` (or the signal's own variable): `http/protobuf`
 * (the default) or `http/json`.
 *
 * @throws {TelemetryError} TELEMETRY_INVALID when an endpoint is set but is no http(s) URL, a
 *   protocol is not OTLP/HTTP's (`grpc`) or an exporter other than `otlp` or `none` is named.
 */
export function resolveTelemetryConfig(env: NodeJS.ProcessEnv = process.env): TelemetryConfig {
  const disabled = truthy(env[TELEMETRY_ENV.sdkDisabled]);
  const timeoutMs = Number(env[TELEMETRY_ENV.timeout]);
  const timeout = Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
  const tracesOff = exporterOff(
    env,
    TELEMETRY_ENV.tracesExporter,
    'unset it to send traces over OTLP, or set none',
  );
  const metricsOff = exporterOff(
    env,
    TELEMETRY_ENV.metricsExporter,
    'for Prometheus use `hankweave worker --metrics-port`',
  );
  const traces = disabled || tracesOff ? undefined : target(env, 'traces');
  const metrics = disabled || metricsOff ? undefined : target(env, 'metrics');
  const interval = Number(env[TELEMETRY_ENV.metricExportInterval]);
  const resourceAttributes = parseKeyValueList(env[TELEMETRY_ENV.resourceAttributes]);
  return {
    traces: traces
      ? { ...traces, timeoutMs: timeout, protocol: protocolOf(env, 'traces') }
      : undefined,
    metrics: metrics
      ? {
          ...metrics,
          timeoutMs: timeout,
          protocol: protocolOf(env, 'metrics'),
          intervalMs: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
        }
      : undefined,
    serviceName:
      env[TELEMETRY_ENV.serviceName]?.trim() || resourceAttributes['service.name'] || 'hankweave',
    resourceAttributes,
    captureContent: truthy(env[TELEMETRY_ENV.captureContent]),
  };
}

/**
 * The variables that turn OpenTelemetry export on (`@hankweave/telemetry`'s `TELEMETRY_ENV`):
 * repeated here so a run without them never loads the SDK (it is imported only when one is set).
 */
export const OTEL_ENDPOINT_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
] as const;

/** True when an OTLP endpoint variable is set (exporting may be on). */
export const otlpEndpointSet = (env: NodeJS.ProcessEnv): boolean =>
  OTEL_ENDPOINT_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');

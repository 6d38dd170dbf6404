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

/** What to do about an `OTEL_*` variable that `@hankweave/telemetry` refused (its message names it). */
export const OTEL_FIX_HINT =
  'Fix the variable named: an endpoint is the OTLP/HTTP address of a collector (e.g. http://localhost:4318), a protocol http/protobuf or http/json, an exporter otlp or none; or unset it to run without exporting.';

// Its own entry (`@hankweave/telemetry/env`): a command line that only names these variables, in
// its help, must not load the OpenTelemetry SDK that the package's main entry brings.

/** The variables this package reads: OpenTelemetry's standard ones and one of ours. */
export const TELEMETRY_ENV = {
  endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  metricsEndpoint: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  headers: 'OTEL_EXPORTER_OTLP_HEADERS',
  tracesHeaders: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  metricsHeaders: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  timeout: 'OTEL_EXPORTER_OTLP_TIMEOUT',
  protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  tracesProtocol: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  metricsProtocol: 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  serviceName: 'OTEL_SERVICE_NAME',
  resourceAttributes: 'OTEL_RESOURCE_ATTRIBUTES',
  sdkDisabled: 'OTEL_SDK_DISABLED',
  tracesExporter: 'OTEL_TRACES_EXPORTER',
  metricsExporter: 'OTEL_METRICS_EXPORTER',
  metricExportInterval: 'OTEL_METRIC_EXPORT_INTERVAL',
  captureContent: 'HANKWEAVE_OTEL_CAPTURE_CONTENT',
} as const;

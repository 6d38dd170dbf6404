// Public surface of @hankweave/telemetry: named exports only.
export { GEN_AI, HANKWEAVE } from './attributes.js';
export {
  type OtlpTarget,
  parseKeyValueList,
  resolveTelemetryConfig,
  type TelemetryConfig,
} from './config.js';
export { TELEMETRY_ENV } from './env.js';
export { TELEMETRY_ERROR_CODES, TelemetryError, type TelemetryErrorCode } from './errors.js';
export {
  type HankweaveMetrics,
  METRIC_NAMES,
  type MetricsOptions,
  startMetrics,
  type WorkerEventLike,
} from './metrics.js';
export {
  MAX_CONTENT_LENGTH,
  mapEventsToSpans,
  providerOf,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanEventRecord,
  SpanMapper,
  type SpanMapperOptions,
  type SpanRecord,
  usageAttributes,
} from './span-mapper.js';
export {
  createTraceExporter,
  describeTraceReport,
  type TraceExporter,
  type TraceExporterOptions,
  type TraceExportReport,
} from './trace-exporter.js';

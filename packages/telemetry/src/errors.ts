import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link TelemetryError} carries. */
export const TELEMETRY_ERROR_CODES = [
  /** No OTLP endpoint is set: `OTEL_EXPORTER_OTLP_ENDPOINT` or a signal's own variable. */
  'TELEMETRY_NO_ENDPOINT',
  /** An `OTEL_*` value or an option is malformed (an endpoint that is no http(s) URL, a port). */
  'TELEMETRY_INVALID',
  /** The collector refused or never answered an export that had to succeed (`traces export`). */
  'TELEMETRY_EXPORT_FAILED',
] as const;
export type TelemetryErrorCode = (typeof TELEMETRY_ERROR_CODES)[number];

/** The one error class of `@hankweave/telemetry`. */
export class TelemetryError extends defineErrorClass('TelemetryError', TELEMETRY_ERROR_CODES) {}

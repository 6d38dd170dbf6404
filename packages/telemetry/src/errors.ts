import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link TelemetryError} carries. */
export const TELEMETRY_ERROR_CODES = [
  /** An `OTEL_*` value or an option is malformed (an endpoint that is no http(s) URL, a port). */
  'TELEMETRY_INVALID',
] as const;
export type TelemetryErrorCode = (typeof TELEMETRY_ERROR_CODES)[number];

/** The one error class of `@hankweave/telemetry`. */
export class TelemetryError extends defineErrorClass('TelemetryError', TELEMETRY_ERROR_CODES) {}

import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link DashboardError} can carry. */
export const DASHBOARD_ERROR_CODES = [
  'DASHBOARD_INVALID_OPTION',
  'DASHBOARD_LISTEN_FAILED',
] as const;

/** One of {@link DASHBOARD_ERROR_CODES}. */
export type DashboardErrorCode = (typeof DASHBOARD_ERROR_CODES)[number];

/**
 * The error `startUiServer` throws when the server cannot start (errors of a request are answers,
 * `HttpError`). It carries `details.hint`, what to do next, which the CLI prints after `→`.
 */
export class DashboardError extends defineErrorClass('DashboardError', DASHBOARD_ERROR_CODES) {
  constructor(code: DashboardErrorCode, message: string, hint: string) {
    super(code, message, { details: { hint } });
  }

  /** What to do next. */
  get hint(): string {
    return this.details.hint as string;
  }
}

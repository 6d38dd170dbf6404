import { defineErrorClass } from '@hankweave/types';

/** The codes of {@link CliError}: a wrong command line, a missing thing, a failed action. */
export const CLI_ERROR_CODES = ['CLI_USAGE', 'CLI_NOT_FOUND', 'CLI_FAILED'] as const;
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** An error the CLI reports itself: what went wrong, and what to do next (`hint`). */
export class CliError extends defineErrorClass('CliError', CLI_ERROR_CODES) {
  constructor(
    code: CliErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(code, message, { details: hint ? { hint } : {} });
  }
}

import { HankweaveError } from '@hankweave/types';

/** An error the CLI reports itself: what went wrong, and what to do next. */
export class CliError extends HankweaveError<'CLI_USAGE' | 'CLI_NOT_FOUND' | 'CLI_FAILED'> {
  override readonly name = 'CliError';
  constructor(
    code: 'CLI_USAGE' | 'CLI_NOT_FOUND' | 'CLI_FAILED',
    message: string,
    readonly hint?: string,
  ) {
    super(code, message, { details: hint ? { hint } : {} });
  }
}

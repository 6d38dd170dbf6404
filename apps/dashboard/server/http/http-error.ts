import type { ApiErrorCode } from '../../src/api/constants.js';

declare const passed: unique symbol;
/** A package's code, passed on as it is: only {@link HttpError.passing} makes one. */
type PassedCode = string & { readonly [passed]: true };

/**
 * An answer other than success, as the API sends it: an HTTP status and an `ApiError` body
 * (`{error: {code, message, hint}}`). Thrown by handlers; the router writes it. Its code is one
 * of the route table's `API_ERROR_CODES`, or a package's own through {@link HttpError.passing}.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | PassedCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }

  /** An answer that passes on a package's coded error (or a runtime's refusal) by its code. */
  static passing(status: number, code: string, message: string, hint?: string): HttpError {
    return new HttpError(status, code as PassedCode, message, hint);
  }
}

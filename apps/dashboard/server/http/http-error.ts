/**
 * An answer other than success, as the API sends it: an HTTP status and an `ApiError` body
 * (`{error: {code, message, hint}}`). Thrown by handlers; the router writes it.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

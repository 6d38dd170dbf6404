/**
 * The one error type the views show: an API answer that was not a success, or a server that could
 * not be reached. Views render `message` and `hint` (see components/error-panel.tsx).
 */
import type { ApiErrorCode, ClientErrorCode } from './constants.js';
import type { ApiError } from './types.js';

export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    /** HTTP status; 0 when the server could not be reached at all. */
    readonly status: number,
    /** The server's code (`API_ERROR_CODES`, or a package's), or the app's own. */
    readonly code: ApiErrorCode | ClientErrorCode | (string & {}),
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const isApiError = (body: unknown): body is ApiError =>
  typeof body === 'object' &&
  body !== null &&
  'error' in body &&
  typeof (body as ApiError).error === 'object' &&
  (body as ApiError).error !== null &&
  typeof (body as ApiError).error.message === 'string';

/** Hints for answers that carry none: what the person in front of the browser can do. */
function defaultHint(status: number): string | undefined {
  if (status === 401) {
    return 'Open the URL that `hankweave ui` printed (it carries the token), or restart `hankweave ui`.';
  }
  if (status === 403) return 'Actions need the server started with `hankweave ui --write`.';
  if (status === 404)
    return 'It may have been removed, or the link is from another base directory.';
  if (status >= 500) return 'The server log (the terminal running `hankweave ui`) has the details.';
  return undefined;
}

/** Turns a non-2xx answer (its status and parsed body, or raw text) into an ApiRequestError. */
export function toApiRequestError(status: number, body: unknown): ApiRequestError {
  if (isApiError(body)) {
    const { code, message, hint } = body.error;
    return new ApiRequestError(
      status,
      code || `HTTP_${status}`,
      message,
      hint ?? defaultHint(status),
    );
  }
  const text = typeof body === 'string' ? body.trim().slice(0, 300) : '';
  return new ApiRequestError(
    status,
    `HTTP_${status}`,
    text === '' ? `The server answered ${status}.` : text,
    defaultHint(status),
  );
}

/** The error for a fetch that never got an answer (server stopped, network down). */
export function unreachableError(cause: unknown): ApiRequestError {
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  return new ApiRequestError(
    0,
    'UNREACHABLE',
    `Could not reach the hankweave ui server${detail}.`,
    'Is `hankweave ui` still running? Start it again and open the URL it prints.',
  );
}

/** Any thrown value as an ApiRequestError, so views have one shape to render. */
export function asApiRequestError(error: unknown): ApiRequestError {
  if (error instanceof ApiRequestError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiRequestError(0, 'CLIENT_ERROR', message);
}

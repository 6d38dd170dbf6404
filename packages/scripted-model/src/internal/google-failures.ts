import type { ServerResponse } from 'node:http';
import type { ScriptedModelError } from '../errors.js';
import type { Failure } from '../script-schema.js';
import { serveBrokenResponse } from './failures.js';

// google.rpc.Code names of the HTTP statuses Google's APIs answer with.
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The canonical status name of an HTTP status (`429` → `RESOURCE_EXHAUSTED`). */
export function googleStatusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'UNKNOWN' : 'FAILED_PRECONDITION');
}

/** Writes a Google API error response: `{error: {code, message, status, details?}}`. */
export function sendGoogleError(
  res: ServerResponse,
  status: number,
  message: string,
  extra: { headers?: Record<string, string>; details?: unknown[] } = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...extra.headers });
  const error = {
    code: status,
    message,
    status: googleStatusName(status),
    ...(extra.details !== undefined && { details: extra.details }),
  };
  res.end(JSON.stringify({ error }));
}

/** The server's own error: 400 `INVALID_ARGUMENT`, the code leading the message. */
export function sendGoogleScriptError(res: ServerResponse, error: ScriptedModelError): void {
  sendGoogleError(res, 400, `${error.code}: ${error.message}`);
}

// The failure kinds in Gemini's words. A rate limit says "rate limit" rather than Gemini's usual
// "quota" wording, which classifiers (hankweave's among them) read as a billing problem that a
// retry cannot fix; the retry delay is the RetryInfo detail Gemini attaches to a 429.
function httpError(
  failure: Failure,
): [number, string, { headers?: Record<string, string>; details?: unknown[] }] | undefined {
  switch (failure.kind) {
    case 'rate-limit': {
      const seconds = failure.retryAfterSeconds;
      const retryInfo = {
        '@type': 'type.googleapis.com/google.rpc.RetryInfo',
        retryDelay: `${seconds}s`,
      };
      const message = `Resource has been exhausted: rate limit reached for requests (scripted). Please retry in ${seconds}s.`;
      return [429, message, { details: [retryInfo] }];
    }
    case 'server-error':
      return [500, 'An internal error has occurred (scripted). Please retry.', {}];
    case 'overloaded':
      return [503, 'The model is overloaded (scripted). Please try again later.', {}];
    case 'prompt-too-long': {
      const message = `The input token count (${failure.tokens}) exceeds the maximum number of tokens allowed (${failure.maximum}).`;
      return [400, message, {}];
    }
    case 'http-error':
      return [
        failure.status,
        failure.message,
        failure.headers === undefined ? {} : { headers: failure.headers },
      ];
    default:
      return undefined;
  }
}

/**
 * Serves a scripted failure to a generateContent request. `partial` is what a mid-stream failure
 * sends before it stops (the first chunk, or half the JSON).
 */
export function serveGoogleFailure(
  res: ServerResponse,
  failure: Failure,
  partial: string,
  stream: boolean,
): void {
  const http = httpError(failure);
  if (http !== undefined) {
    sendGoogleError(res, ...http);
    return;
  }
  if (failure.kind === 'stall' || failure.kind === 'drop') {
    serveBrokenResponse(res, failure, partial, stream);
  }
}

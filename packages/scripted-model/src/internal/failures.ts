import type { ServerResponse } from 'node:http';
import type { Failure } from '../script-schema.js';
import type { ApiMessage } from './render-message.js';
import { partialEvents } from './sse.js';

/** Writes an Anthropic error response (`{type: 'error', error: {type, message}}`). */
export function sendApiError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const requestId = `req_scripted_${status}`;
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': requestId,
    ...headers,
  });
  res.end(JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId }));
}

function startBody(res: ServerResponse, stream: boolean): void {
  res.writeHead(200, {
    'content-type': stream ? 'text/event-stream' : 'application/json',
    'cache-control': 'no-cache',
  });
  res.flushHeaders();
}

/** The bytes a mid-stream failure gets to send: SSE up to the first delta, or half the JSON. */
function partialBody(message: ApiMessage, stream: boolean): string {
  if (stream) return partialEvents(message).join('');
  const json = JSON.stringify(message);
  return json.slice(0, Math.floor(json.length / 2));
}

/** The failures that break the connection rather than answer an HTTP error. */
export type BrokenResponse = Extract<Failure, { kind: 'stall' | 'drop' }>;

/**
 * Serves a stall or a drop, whatever the API: `partial` is what a mid-stream failure gets to
 * send before it stops (the stream up to its first delta, or half the JSON body).
 */
export function serveBrokenResponse(
  res: ServerResponse,
  failure: BrokenResponse,
  partial: string,
  stream: boolean,
): void {
  if (failure.kind === 'stall') {
    if (failure.phase === 'before-headers') return;
    startBody(res, stream);
    if (failure.phase === 'mid-stream') res.write(partial);
    return;
  }
  if (failure.phase === 'before-headers') {
    res.socket?.destroy();
    return;
  }
  startBody(res, stream);
  // Destroy only once the partial body has reached the socket, so the client sees a cut
  // stream rather than a refused request.
  res.write(partial, () => res.socket?.destroy());
}

type HttpError = [status: number, type: string, message: string, headers?: Record<string, string>];

function httpError(failure: Failure): HttpError | undefined {
  switch (failure.kind) {
    case 'rate-limit': {
      const seconds = failure.retryAfterSeconds;
      const message = `This request would exceed the rate limit (scripted); retry after ${seconds}s`;
      return [429, 'rate_limit_error', message, { 'retry-after': String(seconds) }];
    }
    case 'server-error':
      return [500, 'api_error', 'Internal server error'];
    case 'overloaded':
      return [529, 'overloaded_error', 'Overloaded'];
    case 'prompt-too-long': {
      const message = `prompt is too long: ${failure.tokens} tokens > ${failure.maximum} maximum`;
      return [400, 'invalid_request_error', message];
    }
    case 'http-error':
      return [failure.status, failure.type, failure.message, failure.headers];
    default:
      return undefined;
  }
}

/**
 * Serves a scripted failure. `message` is what the turn would have answered, so mid-stream
 * failures cut a realistic stream. Stalls leave the response open: the client's timeout or
 * the server's `close()` ends it.
 */
export function serveFailure(
  res: ServerResponse,
  failure: Failure,
  message: ApiMessage,
  stream: boolean,
): void {
  // Plain HTTP errors: status, Anthropic error type, message, extra headers.
  const http = httpError(failure);
  if (http !== undefined) {
    sendApiError(res, ...http);
    return;
  }
  if (failure.kind === 'stall' || failure.kind === 'drop') {
    serveBrokenResponse(res, failure, partialBody(message, stream), stream);
  }
}

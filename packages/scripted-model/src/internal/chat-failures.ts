import type { ServerResponse } from 'node:http';
import type { Failure } from '../script-schema.js';
import { serveBrokenResponse } from './failures.js';

/** The `error` object of an OpenAI error body. */
export interface ChatErrorBody {
  message: string;
  type: string;
  param?: string | null;
  code?: string | null;
}

/** Writes an OpenAI error response: `{error: {message, type, param, code}}`. */
export function sendChatError(
  res: ServerResponse,
  status: number,
  error: ChatErrorBody,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req_scripted_${status}`,
    ...headers,
  });
  res.end(JSON.stringify({ error: { param: null, code: null, ...error } }));
}

type HttpError = [status: number, error: ChatErrorBody, headers?: Record<string, string>];

// The failure kinds in OpenAI's words: the statuses, types and codes its API answers with, and
// messages that clients' own classifiers recognise (Pi's context-overflow patterns match
// "maximum context length is N tokens").
function httpError(failure: Failure): HttpError | undefined {
  switch (failure.kind) {
    case 'rate-limit': {
      const seconds = failure.retryAfterSeconds;
      const message = `Rate limit reached for requests (scripted). Please try again in ${seconds}s.`;
      const error = { message, type: 'requests', code: 'rate_limit_exceeded' };
      return [429, error, { 'retry-after': String(seconds) }];
    }
    case 'server-error': {
      const message = 'The server had an error while processing your request (scripted).';
      return [500, { message, type: 'server_error' }];
    }
    case 'overloaded': {
      const message = 'The server is overloaded, please try again later (scripted).';
      return [503, { message, type: 'server_error' }];
    }
    case 'prompt-too-long': {
      const message =
        `This model's maximum context length is ${failure.maximum} tokens. However, your ` +
        `messages resulted in ${failure.tokens} tokens. Please reduce the length of the messages.`;
      const error = {
        message,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      };
      return [400, error];
    }
    case 'http-error':
      return [failure.status, { message: failure.message, type: failure.type }, failure.headers];
    default:
      return undefined;
  }
}

/**
 * Serves a scripted failure to a Chat Completions request. `partial` is what a mid-stream
 * failure sends before it stops (the role chunk and the first delta, or half the JSON).
 */
export function serveChatFailure(
  res: ServerResponse,
  failure: Failure,
  partial: string,
  stream: boolean,
): void {
  const http = httpError(failure);
  if (http !== undefined) {
    sendChatError(res, ...http);
    return;
  }
  if (failure.kind === 'stall' || failure.kind === 'drop') {
    serveBrokenResponse(res, failure, partial, stream);
  }
}

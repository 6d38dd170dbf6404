import type { ServerResponse } from 'node:http';
import type { ScriptedModelError } from '../errors.js';
import type { Failure } from '../script-schema.js';
import { serveBrokenResponse } from './failures.js';

/** The `error` object of an OpenAI error body. */
export interface OpenAiErrorBody {
  message: string;
  type: string;
  param?: string | null;
  code?: string | null;
}

/** The two OpenAI APIs; they differ only in how a context overflow is worded. */
export type OpenAiApi = 'chat-completions' | 'responses';

/** Writes an OpenAI error response: `{error: {message, type, param, code}}`. */
export function sendOpenAiError(
  res: ServerResponse,
  status: number,
  error: OpenAiErrorBody,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req_scripted_${status}`,
    ...headers,
  });
  res.end(JSON.stringify({ error: { param: null, code: null, ...error } }));
}

/** The server's own error: 400, the code both in `code` and leading the message, so clients stop. */
export function sendOpenAiScriptError(res: ServerResponse, error: ScriptedModelError): void {
  sendOpenAiError(res, 400, {
    message: `${error.code}: ${error.message}`,
    type: 'invalid_request_error',
    code: error.code,
  });
}

type HttpError = [status: number, error: OpenAiErrorBody, headers?: Record<string, string>];

// A context overflow as each API words it, in phrases that clients' own classifiers recognise:
// Chat Completions says "maximum context length is N tokens", the Responses API "exceeds the
// context window" (both patterns of Pi's overflow detection).
function overflowError(api: OpenAiApi, tokens: number, maximum: number): OpenAiErrorBody {
  if (api === 'responses') {
    const message =
      'Your input exceeds the context window of this model. Please adjust your input and try ' +
      `again. (scripted: ${tokens} tokens > ${maximum} maximum)`;
    return {
      message,
      type: 'invalid_request_error',
      param: 'input',
      code: 'context_length_exceeded',
    };
  }
  const message =
    `This model's maximum context length is ${maximum} tokens. However, your ` +
    `messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
  return {
    message,
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  };
}

// The failure kinds in OpenAI's words: the statuses, types and codes its APIs answer with.
function httpError(failure: Failure, api: OpenAiApi): HttpError | undefined {
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
    case 'prompt-too-long':
      return [400, overflowError(api, failure.tokens, failure.maximum)];
    case 'http-error':
      return [failure.status, { message: failure.message, type: failure.type }, failure.headers];
    default:
      return undefined;
  }
}

/**
 * Serves a scripted failure to a Chat Completions or Responses request. `partial` is what a
 * mid-stream failure sends before it stops (the stream up to its first delta, or half the JSON).
 */
export function serveOpenAiFailure(
  res: ServerResponse,
  failure: Failure,
  partial: string,
  options: { stream: boolean; api: OpenAiApi },
): void {
  const http = httpError(failure, options.api);
  if (http !== undefined) {
    sendOpenAiError(res, ...http);
    return;
  }
  if (failure.kind === 'stall' || failure.kind === 'drop') {
    serveBrokenResponse(res, failure, partial, options.stream);
  }
}

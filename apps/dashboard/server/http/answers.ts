import type { ServerResponse } from 'node:http';
import type { ApiError } from '../../src/api/types.js';
import { SECURITY_HEADERS } from './security.js';
import { toHttpError } from './to-http-error.js';

/** Writes the status and headers: the security headers always, then the answer's own. */
export function writeHead(
  response: ServerResponse,
  status: number,
  headers: Record<string, string | number> = {},
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, ...headers });
}

/** A JSON answer; API answers are never cached. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  writeHead(response, status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(response.req.method === 'HEAD' ? undefined : text);
}

/** An `ApiError` answer for anything thrown (see `toHttpError`). */
export function sendError(response: ServerResponse, error: unknown): void {
  const known = toHttpError(error);
  const body: ApiError = {
    error: {
      code: known.code,
      message: known.message,
      ...(known.hint ? { hint: known.hint } : {}),
    },
  };
  if (response.headersSent) {
    response.destroy();
    return;
  }
  sendJson(response, known.status, body);
}

/** A plain-text answer (401 pages, refusals before routing): a body without any data. */
export function sendText(response: ServerResponse, status: number, text: string): void {
  writeHead(response, status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}

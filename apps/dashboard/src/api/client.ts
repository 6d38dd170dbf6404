/**
 * fetch wrappers for the API. Same-origin only (the server sends no CORS headers and the CSP allows
 * `connect-src 'self'`); the auth cookie rides along by default.
 */
import { ApiRequestError, toApiRequestError, unreachableError } from './api-error.js';
import { api } from './paths.js';
import type { ActionName, ActionResult } from './types.js';

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', ...init });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    throw unreachableError(cause);
  }
  const body = await readBody(response);
  if (!response.ok) throw toApiRequestError(response.status, body);
  return body;
}

/** GET a JSON route; throws ApiRequestError on any failure. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const body = await send(url, { headers: { accept: 'application/json' }, signal });
  if (body === undefined || typeof body === 'string') {
    throw new ApiRequestError(200, 'BAD_RESPONSE', `${url} did not answer JSON.`);
  }
  return body as T;
}

/**
 * POST an action. The header is what the server checks to refuse form posts from other pages;
 * `confirm: true` records that the person saw the dialog.
 */
export async function postAction(
  executionId: string,
  action: ActionName,
  target?: string,
): Promise<ActionResult> {
  const body = await send(api.action(executionId, action), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hankweave-action': '1' },
    body: JSON.stringify(target === undefined ? { confirm: true } : { confirm: true, target }),
  });
  return body as ActionResult;
}

/**
 * fetch wrappers for the API. Same-origin only (the server sends no CORS headers and the CSP allows
 * `connect-src 'self'`); the auth cookie rides along by default.
 */
import { ApiRequestError, toApiRequestError, unreachableError } from './api-error.js';
import { ACTION_HEADER, type ActionName } from './constants.js';
import {
  type ActionBody,
  type ResponseOf,
  type Route,
  type RouteArgs,
  routes,
  urlOf,
} from './routes.js';

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
export async function getJson<R extends Route>(
  route: R,
  args: RouteArgs<R>,
  signal?: AbortSignal,
): Promise<ResponseOf<R>> {
  const url = urlOf(route, args);
  const body = await send(url, { headers: { accept: 'application/json' }, signal });
  if (body === undefined || typeof body === 'string') {
    throw new ApiRequestError(200, 'BAD_RESPONSE', `${url} did not answer JSON.`);
  }
  return body as ResponseOf<R>;
}

/**
 * POST an action. The header is what the server checks to refuse form posts from other pages;
 * `confirm: true` records that the person saw the dialog.
 */
export async function postAction(
  executionId: string,
  action: ActionName,
  target?: string,
): Promise<ResponseOf<typeof routes.action>> {
  const request: ActionBody = target === undefined ? { confirm: true } : { confirm: true, target };
  const body = await send(urlOf(routes.action, { id: executionId, action }), {
    method: routes.action.method,
    headers: { 'content-type': 'application/json', [ACTION_HEADER]: '1' },
    body: JSON.stringify(request),
  });
  return body as ResponseOf<typeof routes.action>;
}

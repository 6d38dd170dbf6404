import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerInfo } from '@hankweave/dashboard/api-types';
import { costsOf } from '../derive/costs.js';
import { eventPage } from '../events/event-pages.js';
import { type ExecutionCatalog, filesOf } from '../execution-catalog.js';
import { sendJson } from '../http/answers.js';
import { HttpError } from '../http/http-error.js';
import { sameOriginAction } from '../http/security.js';
import { type ActionRequest, runAction } from './actions.js';
import { diffCheckpoints, listCheckpoints } from './checkpoints.js';
import { codonDetail } from './codon-detail.js';
import { eventQueryOf } from './event-query.js';
import { executionDetail, listExecutions } from './executions.js';
import { streamLive } from './live.js';
import { sessionsOf } from './sessions.js';

/** What the API handlers share for the server's lifetime. */
export interface ApiContext {
  catalog: ExecutionCatalog;
  info: ServerInfo;
  /** Aborted when the server closes: live streams end. */
  stopping: AbortSignal;
}

const MAX_BODY = 64 * 1024;

async function readJsonBody(request: IncomingMessage): Promise<ActionRequest> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY)
      throw new HttpError(413, 'BODY_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return body as ActionRequest;
  } catch {
    // answered below
  }
  throw new HttpError(
    400,
    'BAD_BODY',
    'The request body is not a JSON object',
    'Send {"confirm": true}.',
  );
}

/** Path segments after `/api/`, each URL-decoded; a 404 for one that does not decode. */
function segmentsOf(pathname: string): string[] {
  return pathname
    .slice('/api/'.length)
    .split('/')
    .filter((segment, index, all) => segment !== '' || index < all.length - 1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new HttpError(404, 'NOT_FOUND', `No API route ${pathname.slice(0, 200)}`);
      }
    });
}

function notFound(pathname: string): HttpError {
  return new HttpError(
    404,
    'NOT_FOUND',
    `No API route ${pathname.slice(0, 200)}`,
    'Routes: /api/info, /api/executions[/:id[/codons/:key|/events|/checkpoints|/diff|/costs|/live]], /api/sessions.',
  );
}

/** Answers one `/api/…` request (authenticated and host-checked by the server already). */
export async function handleApi(
  context: ApiContext,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const { catalog } = context;
  const segments = segmentsOf(url.pathname);
  const [resource, id, sub, arg, ...rest] = segments;
  const params = url.searchParams;

  if (request.method === 'POST') {
    if (resource !== 'executions' || !id || sub !== 'actions' || !arg || rest.length > 0)
      throw notFound(url.pathname);
    if (!context.info.write)
      throw new HttpError(
        403,
        'READ_ONLY',
        'This dashboard is read-only: actions are off',
        'Restart it with `hankweave ui --write` to allow rollback, skip, stop and next.',
      );
    const refused = sameOriginAction(request);
    if (refused)
      throw new HttpError(
        403,
        'FORBIDDEN_ORIGIN',
        `Action refused: ${refused}`,
        'Actions are sent by the dashboard page itself.',
      );
    const body = await readJsonBody(request);
    const facts = await catalog.facts(id);
    filesOf(facts);
    sendJson(response, 200, await runAction(facts, arg, body));
    return;
  }

  if (resource === 'info' && segments.length === 1) return sendJson(response, 200, context.info);
  if (resource === 'sessions' && segments.length === 1)
    return sendJson(response, 200, await sessionsOf(catalog.baseDir));
  if (resource !== 'executions') throw notFound(url.pathname);
  if (id === undefined) return sendJson(response, 200, await listExecutions(catalog, params));
  if (sub === undefined) return sendJson(response, 200, executionDetail(await catalog.facts(id)));
  if (rest.length > 0) throw notFound(url.pathname);
  switch (sub) {
    case 'codons':
      if (arg === undefined) break;
      return sendJson(response, 200, await codonDetail(catalog, await catalog.facts(id), arg));
    case 'events': {
      if (arg !== undefined) break;
      const facts = await catalog.facts(id);
      const { journal, index } = await catalog.journal(id);
      return sendJson(
        response,
        200,
        await eventPage(journal, index, eventQueryOf(params, facts.state)),
      );
    }
    case 'checkpoints':
      if (arg !== undefined) break;
      return sendJson(response, 200, await listCheckpoints(filesOf(await catalog.facts(id))));
    case 'diff': {
      if (arg !== undefined) break;
      const facts = await catalog.facts(id);
      return sendJson(response, 200, await diffCheckpoints(filesOf(facts), facts.state, params));
    }
    case 'costs': {
      if (arg !== undefined) break;
      const facts = await catalog.facts(id);
      return sendJson(
        response,
        200,
        facts.state ? costsOf(facts.state) : { totalUsd: 0, byCodon: [], byModel: [] },
      );
    }
    case 'live':
      if (arg !== undefined) break;
      return streamLive(
        catalog,
        id,
        request,
        response,
        context.stopping,
        params.get('after') ?? undefined,
      );
  }
  throw notFound(url.pathname);
}

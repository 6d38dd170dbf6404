import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CommandLine } from '@hankweave/inspection';
import {
  matchRoute,
  type PathParams,
  queryOf,
  type RawQuery,
  type Route,
  type RouteName,
  type Routes,
  routes,
} from '../../src/api/routes.js';
import type { ServerInfo } from '../../src/api/types.js';
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
  /** How hints spell the commands they suggest (the CLI's launcher). */
  command?: CommandLine;
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

function notFound(pathname: string): HttpError {
  return new HttpError(
    404,
    'NOT_FOUND',
    `No API route ${pathname.slice(0, 200)}`,
    `Routes: ${Object.values(routes as Record<string, Route>)
      .map((route) => `${route.method} ${route.pattern}`)
      .join(', ')}.`,
  );
}

/** One request to a matched route. */
interface Call<R extends Route> {
  context: ApiContext;
  request: IncomingMessage;
  response: ServerResponse;
  /** Its path parameters, URL-decoded. */
  params: R extends Route<infer Pattern> ? { [K in PathParams<Pattern>]: string } : never;
  /** Its query, read by the route's query table (see `queryOf`). */
  query: RawQuery<R>;
}

/** A JSON route's handler returns its answer (typed by the route table); a stream writes its own. */
type Handler<R extends Route> =
  R extends Route<string, unknown, infer Response, 'GET' | 'POST', infer Answers>
    ? (call: Call<R>) => Promise<Answers extends 'json' ? Response : void>
    : never;

/** Every route of the table answered, each with the type the web app expects. */
const handlers: { [N in RouteName]: Handler<Routes[N]> } = {
  info: async ({ context }) => context.info,
  sessions: ({ context }) => sessionsOf(context.catalog.baseDir),
  executions: ({ context, query }) => listExecutions(context.catalog, query),
  execution: async ({ context, params }) => executionDetail(await context.catalog.facts(params.id)),
  codon: async ({ context, params }) =>
    codonDetail(context.catalog, await context.catalog.facts(params.id), params.key),
  events: async ({ context, params, query }) => {
    const facts = await context.catalog.facts(params.id);
    const { journal, index } = await context.catalog.journal(params.id);
    return eventPage(journal, index, eventQueryOf(query, facts.state));
  },
  checkpoints: async ({ context, params }) =>
    listCheckpoints(filesOf(await context.catalog.facts(params.id))),
  diff: async ({ context, params, query }) => {
    const facts = await context.catalog.facts(params.id);
    return diffCheckpoints(filesOf(facts), facts.state, query, context.command);
  },
  costs: async ({ context, params }) => {
    const facts = await context.catalog.facts(params.id);
    return facts.state ? costsOf(facts.state) : { totalUsd: 0, byCodon: [], byModel: [] };
  },
  live: ({ context, params, request, response, query }) =>
    streamLive(context.catalog, params.id, request, response, context.stopping, query.after),
  action: async ({ context, params, request }) => {
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
    const facts = await context.catalog.facts(params.id);
    filesOf(facts);
    return runAction(facts, params.action, body, context.command);
  },
};

/** Answers one `/api/…` request (authenticated and host-checked by the server already). */
export async function handleApi(
  context: ApiContext,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  // HEAD asks what GET would answer (Node leaves the body out).
  const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
  const match = matchRoute(method, url.pathname);
  if (!match) throw notFound(url.pathname);
  const handler = handlers[match.name] as (call: Call<Route>) => Promise<unknown>;
  const answer = await handler({
    context,
    request,
    response,
    params: match.params as never,
    query: queryOf(routes[match.name], url.searchParams) as never,
  });
  if (routes[match.name].answers === 'json') sendJson(response, 200, answer);
}

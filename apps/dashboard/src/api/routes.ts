/**
 * The API's route table, the one place a route is spelled: its method, its path pattern (`:name`
 * segments are parameters), its query and the type of its answer. The web app builds URLs with
 * {@link urlOf}, the server matches requests with {@link matchRoute} and reads their query with
 * {@link queryOf}, and `useApi(route, args)` takes its data type from the route, so a route
 * cannot be built one way and parsed another.
 */
import type { ExecutionSortKey, ExecutionStatus, SortOrder } from './constants.js';
import type {
  ActionResult,
  CheckpointWire,
  CodonDetail,
  CostsWire,
  DiffWire,
  EventPageWire,
  ExecutionDetail,
  ExecutionList,
  LiveMessage,
  ServerInfo,
  SessionsWire,
} from './types.js';

/**
 * How a query value is written: `text` and `number` as they are, `list` comma-joined in one
 * parameter (`types=a,b`), `repeated` as one parameter per value (`path=a&path=b`: paths may hold
 * commas).
 */
export type QueryKind = 'text' | 'number' | 'list' | 'repeated';

/** `json`: one JSON answer; `event-stream`: server-sent events (`LiveMessage`s), not for `useApi`. */
export type AnswerKind = 'json' | 'event-stream';

export type Method = 'GET' | 'POST';

/** How each query parameter of a route is written (every one listed, optional or not). */
type QuerySpec<Query> = { readonly [K in keyof Query]-?: QueryKind };

export interface Route<
  Pattern extends string = string,
  Query = unknown,
  Response = unknown,
  M extends Method = Method,
  A extends AnswerKind = AnswerKind,
> {
  readonly method: M;
  readonly pattern: Pattern;
  readonly answers: A;
  readonly query: QuerySpec<Query>;
  /** Never set: carries the answer's type to `useApi` and the server's handler table. */
  readonly response?: Response;
}

/** The names of a pattern's `:name` segments. */
export type PathParams<Pattern extends string> =
  Pattern extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParams<`/${Rest}`>
    : Pattern extends `${string}:${infer Name}`
      ? Name
      : never;

/** What a URL of the route is built from: its path parameters and its query, in one object. */
export type RouteArgs<R extends Route> =
  R extends Route<infer Pattern, infer Query, unknown, Method, AnswerKind>
    ? { readonly [K in PathParams<Pattern>]: string } & Query
    : never;

export type ResponseOf<R extends Route> =
  R extends Route<string, unknown, infer Response, Method, AnswerKind> ? Response : never;

/** Declares a route; curried so the answer type is given and the pattern inferred. */
const declare =
  <Response, Query = Record<never, never>>() =>
  <const Pattern extends string, const M extends Method, const A extends AnswerKind>(
    method: M,
    pattern: Pattern,
    query: QuerySpec<Query>,
    answers: A,
  ): Route<Pattern, Query, Response, M, A> => ({ method, pattern, query, answers });

/** `?status=&q=&offset=&limit=&sort=&order=` of the execution list. */
export interface ExecutionListQuery {
  /** One status or several (the server takes a comma-separated list). */
  status?: ExecutionStatus | readonly ExecutionStatus[];
  q?: string;
  offset?: number;
  limit?: number;
  sort?: ExecutionSortKey;
  order?: SortOrder;
}

/** `?after=&before=&limit=&codon=&types=` of an events page. */
export interface EventsQuery {
  after?: string;
  before?: string;
  limit?: number;
  /** A bar key (`{runId}~{index}`) or a codon id. */
  codon?: string;
  /** Event types; `codon.*` for a prefix. */
  types?: readonly string[];
}

/** The body of `POST …/actions/:action`: `confirm` records that the person saw the dialog. */
export interface ActionBody {
  confirm?: boolean;
  /** `rollback`: a checkpoint sha or `last-success`. */
  target?: string;
}

export const routes = {
  info: declare<ServerInfo>()('GET', '/api/info', {}, 'json'),
  sessions: declare<SessionsWire>()('GET', '/api/sessions', {}, 'json'),
  executions: declare<ExecutionList, ExecutionListQuery>()(
    'GET',
    '/api/executions',
    {
      status: 'list',
      q: 'text',
      offset: 'number',
      limit: 'number',
      sort: 'text',
      order: 'text',
    },
    'json',
  ),
  execution: declare<ExecutionDetail>()('GET', '/api/executions/:id', {}, 'json'),
  codon: declare<CodonDetail>()('GET', '/api/executions/:id/codons/:key', {}, 'json'),
  events: declare<EventPageWire, EventsQuery>()(
    'GET',
    '/api/executions/:id/events',
    {
      after: 'text',
      before: 'text',
      limit: 'number',
      codon: 'text',
      types: 'list',
    },
    'json',
  ),
  checkpoints: declare<CheckpointWire[]>()('GET', '/api/executions/:id/checkpoints', {}, 'json'),
  diff: declare<DiffWire, { from: string; to: string; path?: readonly string[] }>()(
    'GET',
    '/api/executions/:id/diff',
    { from: 'text', to: 'text', path: 'repeated' },
    'json',
  ),
  costs: declare<CostsWire>()('GET', '/api/executions/:id/costs', {}, 'json'),
  live: declare<LiveMessage, { after?: string }>()(
    'GET',
    '/api/executions/:id/live',
    { after: 'text' },
    'event-stream',
  ),
  action: declare<ActionResult, Record<never, never>>()(
    'POST',
    '/api/executions/:id/actions/:action',
    {},
    'json',
  ),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

const PARAM = /^:(.+)$/;

/**
 * The URL of a route: path parameters encoded into the pattern, every other defined, non-empty
 * argument into the query (in the route's query order).
 */
export function urlOf<R extends Route>(route: R, args: RouteArgs<R>): string {
  const values = args as Record<string, unknown>;
  const path = route.pattern
    .split('/')
    .map((segment) => {
      const name = PARAM.exec(segment)?.[1];
      return name === undefined ? segment : encodeURIComponent(String(values[name]));
    })
    .join('/');
  const search = new URLSearchParams();
  for (const [name, kind] of Object.entries(route.query as Record<string, QueryKind>)) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    const list = Array.isArray(value) ? value.map(String) : [String(value)];
    if (kind === 'repeated') for (const item of list) search.append(name, item);
    else if (list.length > 0) search.set(name, list.join(','));
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}

export interface RouteMatch {
  name: RouteName;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
}

/**
 * The route a request is for, and its path parameters; undefined when none matches (a 404):
 * another method, another path, an empty or undecodable parameter. One trailing slash is allowed.
 */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  const segments = pathname.replace(/(.)\/$/, '$1').split('/');
  for (const [name, route] of Object.entries(routes) as [RouteName, Route][]) {
    if (route.method !== method) continue;
    const pattern = route.pattern.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matched = pattern.every((part, index) => {
      const segment = segments[index] as string;
      const param = PARAM.exec(part)?.[1];
      if (param === undefined) return part === segment;
      if (segment === '') return false;
      try {
        params[param] = decodeURIComponent(segment);
        return true;
      } catch {
        return false;
      }
    });
    if (matched) return { name, params };
  }
  return undefined;
}

/**
 * A query value as the server reads it, before it checks it: a list's items (`list` and
 * `repeated` parameters, possibly none), else the text as written (undefined when absent).
 */
type RawValue<V> = [V] extends [string | number | undefined] ? string | undefined : string[];

/** The query of a request to the route, as {@link queryOf} reads it: one field per parameter. */
export type RawQuery<R extends Route> =
  R extends Route<string, infer Query, unknown, Method, AnswerKind>
    ? { readonly [K in keyof Query]-?: RawValue<Query[K]> }
    : never;

/**
 * Reads a request's query the way {@link urlOf} wrote it, by the route's query table: a `list`
 * split on commas (items trimmed, empty ones dropped; the parameter may also be repeated), a
 * `repeated` parameter's values (empty ones dropped), anything else its first value. Checking
 * the values (numbers, closed lists) is the handler's.
 */
export function queryOf<R extends Route>(route: R, search: URLSearchParams): RawQuery<R> {
  const query: Record<string, string | string[] | undefined> = {};
  for (const [name, kind] of Object.entries(route.query as Record<string, QueryKind>)) {
    if (kind === 'list')
      query[name] = search
        .getAll(name)
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter(Boolean);
    else if (kind === 'repeated') query[name] = search.getAll(name).filter(Boolean);
    else query[name] = search.get(name) ?? undefined;
  }
  return query as RawQuery<R>;
}

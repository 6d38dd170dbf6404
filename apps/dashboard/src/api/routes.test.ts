import { describe, expect, it } from 'vitest';
import { matchRoute, queryOf, type RouteName, routes, urlOf } from './routes.js';

/** Awkward but legal values: what ids, bar keys and shas may hold. */
const ID = '2026-01-01 10.00/é?#%';
const KEY = 'run-1~3';

/** One set of arguments per route, each with every path parameter and some query values. */
const examples: { [N in RouteName]: Parameters<typeof urlOf<(typeof routes)[N]>>[1] } = {
  info: {},
  sessions: {},
  executions: { status: ['failed', 'crashed'], q: 'a b,c', offset: 50, limit: 50, sort: 'cost' },
  execution: { id: ID },
  codon: { id: ID, key: KEY },
  events: { id: ID, after: 'c1', limit: 10, codon: KEY, types: ['codon.*', 'tool.result'] },
  checkpoints: { id: ID },
  diff: { id: ID, from: 'aaaa', to: 'last-success', path: ['a,b.txt', 'c/d.txt'] },
  costs: { id: ID },
  live: { id: ID, after: 'c1' },
  action: { id: ID, action: 'rollback' },
};

describe('urlOf() and matchRoute()', () => {
  for (const name of Object.keys(routes) as RouteName[]) {
    it(`round-trips ${name}`, () => {
      const route = routes[name];
      const args = examples[name] as Record<string, unknown>;
      const url = new URL(urlOf(route, args as never), 'http://localhost');
      const match = matchRoute(route.method, url.pathname);
      expect(match?.name).toBe(name);
      const pathParams = Object.fromEntries(
        Object.entries(args).filter(([key]) => route.pattern.includes(`/:${key}`)),
      );
      expect(match?.params).toEqual(pathParams);
      // Every query value comes back as the server reads it: lists split on commas, repeated
      // values one parameter each.
      for (const [key, kind] of Object.entries(route.query as Record<string, string>)) {
        const value = args[key];
        if (value === undefined) continue;
        const read =
          kind === 'list'
            ? url.searchParams.get(key)?.split(',')
            : kind === 'repeated'
              ? url.searchParams.getAll(key)
              : url.searchParams.get(key);
        expect(read).toEqual(Array.isArray(value) ? value : String(value));
      }
      // queryOf, the server's reader, gives back what urlOf wrote (numbers as their text).
      const query = queryOf(route, url.searchParams) as Record<string, unknown>;
      for (const [key, kind] of Object.entries(route.query as Record<string, string>)) {
        const value = args[key];
        const empty = kind === 'list' || kind === 'repeated' ? [] : undefined;
        expect(query[key]).toEqual(
          value === undefined ? empty : Array.isArray(value) ? value : String(value),
        );
      }
    });
  }

  it('reads a list split on commas or repeated, trimmed, and drops empty values', () => {
    const search = new URLSearchParams('types=a,%20b,,c&types=d&path=x&path=&path=y,z&codon=');
    expect(queryOf(routes.events, search)).toEqual({
      after: undefined,
      before: undefined,
      limit: undefined,
      codon: '',
      types: ['a', 'b', 'c', 'd'],
    });
    expect(queryOf(routes.diff, search).path).toEqual(['x', 'y,z']);
  });

  it('matches nothing for another method, an unknown path or an empty parameter', () => {
    expect(matchRoute('POST', '/api/info')).toBeUndefined();
    expect(matchRoute('GET', '/api/executions/x/actions/stop')).toBeUndefined();
    expect(matchRoute('GET', '/api/nope')).toBeUndefined();
    expect(matchRoute('GET', '/api/executions//costs')).toBeUndefined();
    expect(matchRoute('GET', '/api/executions/%E0%A4%A/costs')).toBeUndefined();
    expect(matchRoute('GET', '/api/executions/x/costs/extra')).toBeUndefined();
  });

  it('allows one trailing slash', () => {
    expect(matchRoute('GET', '/api/executions/')).toEqual({ name: 'executions', params: {} });
  });
});

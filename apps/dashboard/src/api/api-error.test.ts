import { describe, expect, it } from 'vitest';
import { ApiRequestError, toApiRequestError, unreachableError } from './api-error.js';
import { pages, queryString } from './paths.js';
import { routes, urlOf } from './routes.js';

describe('toApiRequestError()', () => {
  it('keeps the code, message and hint of an ApiError body', () => {
    const error = toApiRequestError(404, {
      error: { code: 'NOT_FOUND', message: 'no execution abc', hint: 'check the id' },
    });
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', hint: 'check the id' });
    expect(error.message).toBe('no execution abc');
  });
  it('adds a hint about the token to a 401 without one', () => {
    const error = toApiRequestError(401, { error: { code: 'UNAUTHORIZED', message: 'no token' } });
    expect(error.hint).toContain('token');
  });
  it('uses the text of a non-JSON body and an HTTP code', () => {
    const error = toApiRequestError(502, 'Bad gateway');
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message: 'Bad gateway' });
  });
  it('still says something for an empty body', () => {
    expect(toApiRequestError(500, undefined).message).toContain('500');
  });
});

describe('unreachableError()', () => {
  it('has status 0 and says how to recover', () => {
    const error = unreachableError(new TypeError('Failed to fetch'));
    expect(error).toMatchObject({ status: 0, code: 'UNREACHABLE' });
    expect(error.hint).toContain('hankweave ui');
  });
});

describe('paths', () => {
  it('drops empty query values', () => {
    expect(queryString({ a: '1', b: '', c: undefined, d: 0 })).toBe('?a=1&d=0');
    expect(queryString({})).toBe('');
  });
  it('encodes ids and codon keys', () => {
    expect(urlOf(routes.codon, { id: 'a b', key: 'run-1~3' })).toBe(
      '/api/executions/a%20b/codons/run-1~3',
    );
    expect(pages.codon('x/y', 'k')).toBe('/executions/x%2Fy/codons/k');
  });
  it('joins event types with commas', () => {
    expect(
      urlOf(routes.events, { id: 'e', codon: 'r~1', types: ['assistant.action', 'tool.result'] }),
    ).toBe('/api/executions/e/events?codon=r%7E1&types=assistant.action%2Ctool.result');
  });
});

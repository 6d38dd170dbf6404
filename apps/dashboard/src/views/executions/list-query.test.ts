import { describe, expect, it } from 'vitest';
import type { ExecutionSummary } from '../../api/types.js';
import {
  listQueryToParams,
  listRequest,
  PAGE_SIZE,
  pageCount,
  parseListQuery,
  sortExecutions,
  toggleSort,
} from './list-query.js';

const row = (id: string, over: Partial<ExecutionSummary> = {}): ExecutionSummary => ({
  id,
  dir: `/base/${id}`,
  hankName: id,
  status: 'completed',
  live: false,
  costUsd: 0,
  codons: { completed: 0, failed: 0, skipped: 0, planned: 0 },
  runs: 1,
  models: [],
  ...over,
});

describe('parseListQuery()', () => {
  it('gives the defaults for an empty query', () => {
    expect(parseListQuery({})).toEqual({
      tab: 'executions',
      status: undefined,
      q: '',
      sort: 'started',
      order: 'desc',
      page: 1,
    });
  });
  it('ignores unknown statuses, sort keys and bad pages', () => {
    const query = parseListQuery({ status: 'weird', sort: 'nope', page: '-3' });
    expect(query).toMatchObject({ status: undefined, sort: 'started', page: 1 });
  });
  it('round-trips through the URL parameters', () => {
    const query = parseListQuery({
      status: 'failed',
      q: 'docs',
      sort: 'cost',
      order: 'asc',
      page: '3',
    });
    expect(parseListQuery(listQueryToParams(query) as Record<string, string>)).toEqual(query);
  });
  it('leaves the defaults out of the URL', () => {
    expect(Object.values(listQueryToParams(parseListQuery({}))).filter(Boolean)).toEqual([]);
  });
});

describe('listRequest()', () => {
  it('turns the page into an offset', () => {
    expect(listRequest(parseListQuery({ page: '3' }))).toMatchObject({
      offset: 2 * PAGE_SIZE,
      limit: PAGE_SIZE,
    });
  });
});

describe('toggleSort()', () => {
  it('sorts a new column descending and flips the same one, back to page 1', () => {
    const first = toggleSort(parseListQuery({ page: '4' }), 'cost');
    expect(first).toMatchObject({ sort: 'cost', order: 'desc', page: 1 });
    expect(toggleSort(first, 'cost').order).toBe('asc');
    expect(toggleSort(toggleSort(first, 'cost'), 'cost').order).toBe('desc');
  });
});

describe('sortExecutions()', () => {
  const rows = [
    row('a', { costUsd: 0.5, startedAt: '2026-01-02T00:00:00Z', status: 'completed' }),
    row('b', { costUsd: 2, startedAt: '2026-01-01T00:00:00Z', status: 'running' }),
    row('c', { costUsd: 0.5, status: 'failed' }),
  ];
  it('sorts by cost descending and keeps ties in server order', () => {
    expect(sortExecutions(rows, 'cost', 'desc').map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });
  it('puts executions without a start last when newest first', () => {
    expect(sortExecutions(rows, 'started', 'desc').map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
  it('ranks running before failed before completed', () => {
    expect(sortExecutions(rows, 'status', 'asc').map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });
});

describe('pageCount()', () => {
  it('is at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(PAGE_SIZE + 1)).toBe(2);
  });
});

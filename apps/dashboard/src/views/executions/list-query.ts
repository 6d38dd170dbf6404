/**
 * The execution list's state lives in the URL (`/?status=failed&q=docs&sort=cost&order=desc&page=2`)
 * so a filtered, sorted page is a deep link. Parsing is forgiving: unknown values fall back to the
 * defaults instead of breaking the page.
 */
import {
  EXECUTION_SORT_KEYS,
  EXECUTION_STATUSES,
  type ExecutionSortKey,
  type ExecutionStatus,
  type SortOrder,
} from '../../api/constants.js';
import type { ExecutionListQuery } from '../../api/routes.js';
import type { ExecutionSummary } from '../../api/types.js';

export const PAGE_SIZE = 50;

export interface ListQuery {
  tab: 'executions' | 'sessions';
  status?: ExecutionStatus;
  q: string;
  sort: ExecutionSortKey;
  order: SortOrder;
  /** 1-based. */
  page: number;
}

const pick = <T extends string>(allowed: readonly T[], value: string | undefined): T | undefined =>
  allowed.find((candidate) => candidate === value);

export function parseListQuery(query: Record<string, string | undefined>): ListQuery {
  const page = Number.parseInt(query.page ?? '', 10);
  return {
    tab: query.tab === 'sessions' ? 'sessions' : 'executions',
    status: pick(EXECUTION_STATUSES, query.status),
    q: (query.q ?? '').trim(),
    sort: pick(EXECUTION_SORT_KEYS, query.sort) ?? 'started',
    order: query.order === 'asc' ? 'asc' : 'desc',
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** The URL query of a list state; defaults are left out so the plain list is just `/`. */
export function listQueryToParams(query: ListQuery): Record<string, string | undefined> {
  return {
    tab: query.tab === 'sessions' ? 'sessions' : undefined,
    status: query.status,
    q: query.q === '' ? undefined : query.q,
    sort: query.sort === 'started' ? undefined : query.sort,
    order: query.order === 'desc' ? undefined : query.order,
    page: query.page === 1 ? undefined : String(query.page),
  };
}

/** The API request for a list state. */
export function listRequest(query: ListQuery): ExecutionListQuery {
  return {
    status: query.status,
    q: query.q === '' ? undefined : query.q,
    offset: (query.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    sort: query.sort,
    order: query.order,
  };
}

/** Clicking a column: a new column sorts descending (biggest, newest first); the same one flips. */
export function toggleSort(query: ListQuery, key: ExecutionSortKey): ListQuery {
  const order: SortOrder = query.sort === key && query.order === 'desc' ? 'asc' : 'desc';
  return { ...query, sort: key, order, page: 1 };
}

const STATUS_RANK: Record<ExecutionStatus, number> = {
  running: 0,
  failed: 1,
  crashed: 2,
  interrupted: 3,
  partial: 4,
  completed: 5,
  empty: 6,
};

function sortValue(row: ExecutionSummary, key: ExecutionSortKey): number | string {
  switch (key) {
    case 'started':
      return row.startedAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(row.startedAt);
    case 'duration':
      return row.durationMs ?? -1;
    case 'cost':
      return row.costUsd;
    case 'status':
      return STATUS_RANK[row.status];
    case 'hank':
      return row.hankName.toLowerCase();
  }
}

/**
 * Sorts the rows on screen. The server sorts the whole list when it supports `sort=`; sorting the
 * page again here is then a no-op, and keeps the page ordered if the server ignores `sort=`.
 * Ties keep the server's order (newest first).
 */
export function sortExecutions(
  rows: readonly ExecutionSummary[],
  key: ExecutionSortKey,
  order: SortOrder,
): ExecutionSummary[] {
  const direction = order === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: sortValue(row, key) }))
    .sort((a, b) => {
      if (a.value < b.value) return -direction;
      if (a.value > b.value) return direction;
      return a.index - b.index;
    })
    .map(({ row }) => row);
}

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));

/**
 * The closed value lists of the API, spelled once for both sides: the server validates a query
 * against them and the web app offers them. `types.ts` and `routes.ts` take their types from here
 * (this file imports nothing, so neither forms a cycle through it).
 */

/** Every `ExecutionStatus`, in the order the list's filter offers them. */
export const EXECUTION_STATUSES = [
  'running',
  'completed',
  'failed',
  'interrupted',
  'crashed',
  'partial',
  'empty',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** `sort=` of `GET /api/executions`; the first is the default. */
export const EXECUTION_SORT_KEYS = ['started', 'duration', 'cost', 'status', 'hank'] as const;
export type ExecutionSortKey = (typeof EXECUTION_SORT_KEYS)[number];

/** `order=` of `GET /api/executions`; the server's default is `desc`. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `:action` of `POST /api/executions/:id/actions/:action`. */
export const ACTION_NAMES = ['rollback', 'skip', 'stop', 'next'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/**
 * The header an action must carry: a form posted by another page cannot set it, so the server
 * refuses actions without it.
 */
export const ACTION_HEADER = 'x-hankweave-action';

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

/**
 * The codes of the server's own error answers (`{error: {code, message, hint}}`). A package's
 * coded error passes through by its own code (`INSPECTION_NOT_FOUND`, `CHECKPOINT_NOT_FOUND`, a
 * runtime's refusal such as `RUNTIME_NO_CODON_RUNNING`), so a client reads `code` as a string.
 */
export const API_ERROR_CODES = [
  'ACTION_NOT_FOUND',
  'ASSET_NOT_FOUND',
  'BAD_BODY',
  'BAD_CURSOR',
  'BAD_PARAMETER',
  'BODY_TOO_LARGE',
  'CODON_NOT_FOUND',
  'CONFIRMATION_REQUIRED',
  'EXECUTION_FILES_ELSEWHERE',
  'EXECUTION_NOT_FOUND',
  'EXECUTION_NOT_RUNNING',
  'EXECUTION_RUNNING',
  'FLEET_UNREACHABLE',
  'FORBIDDEN_ORIGIN',
  'JOURNAL_NOT_FOUND',
  'NOT_FOUND',
  'NO_WEBSOCKET',
  'READ_ONLY',
  'RUNTIME_REFUSED',
  'UI_INTERNAL',
  'UNAUTHORIZED',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * The codes the web app gives a failure the server did not answer with an error body: no answer
 * at all, an answer that is not JSON, a failure in the page itself (an answer without a body of
 * ours is `HTTP_<status>`).
 */
export const CLIENT_ERROR_CODES = ['UNREACHABLE', 'BAD_RESPONSE', 'CLIENT_ERROR'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/**
 * URLs of the API routes in `types.ts` and of the app's own pages. Pure string building, so every
 * view spells a route one way and ids are always encoded.
 */
import type { ActionName, ExecutionStatus } from './types.js';

const enc = encodeURIComponent;

/** `?a=1&b=2` from the defined, non-empty entries; '' when none are left. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Sort keys of the execution list (`sort=` is additive in the contract; see types.ts). */
export type ExecutionSortKey = 'started' | 'duration' | 'cost' | 'status' | 'hank';
export type SortOrder = 'asc' | 'desc';

export interface ExecutionListParams {
  status?: ExecutionStatus;
  q?: string;
  offset?: number;
  limit?: number;
  sort?: ExecutionSortKey;
  order?: SortOrder;
}

export const api = {
  info: () => '/api/info',
  executions: (p: ExecutionListParams = {}) => `/api/executions${queryString({ ...p })}`,
  sessions: () => '/api/sessions',
  execution: (id: string) => `/api/executions/${enc(id)}`,
  codon: (id: string, key: string) => `/api/executions/${enc(id)}/codons/${enc(key)}`,
  events: (id: string, p: { after?: string; limit?: number; codon?: string; types?: string[] }) =>
    `/api/executions/${enc(id)}/events${queryString({
      after: p.after,
      limit: p.limit,
      codon: p.codon,
      types: p.types?.join(','),
    })}`,
  checkpoints: (id: string) => `/api/executions/${enc(id)}/checkpoints`,
  diff: (id: string, from: string, to: string) =>
    `/api/executions/${enc(id)}/diff${queryString({ from, to })}`,
  costs: (id: string) => `/api/executions/${enc(id)}/costs`,
  live: (id: string) => `/api/executions/${enc(id)}/live`,
  action: (id: string, action: ActionName) => `/api/executions/${enc(id)}/actions/${action}`,
};

/** The app's own routes (deep links). */
export const pages = {
  executions: (query: Record<string, string | number | undefined> = {}) => `/${queryString(query)}`,
  execution: (id: string) => `/executions/${enc(id)}`,
  codon: (id: string, key: string) => `/executions/${enc(id)}/codons/${enc(key)}`,
  checkpoints: (id: string, range: { from?: string; to?: string; file?: string } = {}) =>
    `/executions/${enc(id)}/checkpoints${queryString(range)}`,
};

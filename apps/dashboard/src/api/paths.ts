/**
 * URLs of the app's own pages (the API's are built from `routes.ts`). Pure string building, so
 * every view spells a page one way and ids are always encoded.
 */

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

/** The app's own routes (deep links). */
export const pages = {
  executions: (query: Record<string, string | number | undefined> = {}) => `/${queryString(query)}`,
  execution: (id: string) => `/executions/${enc(id)}`,
  codon: (id: string, key: string) => `/executions/${enc(id)}/codons/${enc(key)}`,
  checkpoints: (id: string, range: { from?: string; to?: string; file?: string } = {}) =>
    `/executions/${enc(id)}/checkpoints${queryString(range)}`,
};

import type { HankweaveState } from '@hankweave/types';
import type { RawQuery, Routes } from '../../src/api/routes.js';
import { codonWindow } from '../derive/codon-window.js';
import type { EventQuery } from '../events/event-pages.js';
import { HttpError } from '../http/http-error.js';
import { integerParam } from './params.js';

/**
 * `?after=&before=&limit=&codon=&types=` as an {@link EventQuery}: `codon` is a bar key
 * (`{runId}~{index}`) or a codon id (its newest record), turned into its codon id and time window; `types` a comma-separated list
 * (`codon.*` for a prefix); `limit` 1 to 1000 (default 100).
 */
export function eventQueryOf(
  query: RawQuery<Routes['events']>,
  state: HankweaveState | undefined,
): EventQuery {
  const { codon: key, types, after, before } = query;
  let codon: EventQuery['filter']['codon'];
  if (key) {
    const window = state ? codonWindow(state, key) : undefined;
    if (!window)
      throw new HttpError(
        404,
        'CODON_NOT_FOUND',
        `No codon ${JSON.stringify(key.slice(0, 200))} in this execution`,
        'Pass a codon id (its newest attempt) or a key of a timeline bar: `{runId}~{index in run}`.',
      );
    codon = { codonId: window.codonId, fromMs: window.fromMs, toMs: window.toMs };
  }
  if (after !== undefined && before !== undefined)
    throw new HttpError(400, 'BAD_PARAMETER', 'Pass after or before, not both');
  return {
    ...(after !== undefined ? { after } : {}),
    ...(before !== undefined ? { before } : {}),
    limit: integerParam('limit', query.limit, 100, 1, 1000),
    filter: { ...(codon ? { codon } : {}), ...(types.length > 0 ? { types } : {}) },
  };
}

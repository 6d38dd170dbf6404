import {
  EXECUTION_SORT_KEYS,
  EXECUTION_STATUSES,
  type ExecutionSortKey,
  type ExecutionStatus,
} from '../../src/api/constants.js';
import type { RawQuery, Routes } from '../../src/api/routes.js';
import type { ExecutionDetail, ExecutionList, ExecutionSummary } from '../../src/api/types.js';
import { codonBars, planBlocks, planLoops } from '../derive/codon-bars.js';
import { type ExecutionFacts, executionSummary } from '../derive/execution-summary.js';
import { runNodes } from '../derive/run-nodes.js';
import type { ExecutionCatalog } from '../execution-catalog.js';
import { HttpError } from '../http/http-error.js';
import { integerParam } from './params.js';

const sortValue = (summary: ExecutionSummary, key: ExecutionSortKey): string | number => {
  switch (key) {
    case 'started':
      return summary.startedAt ?? '';
    case 'duration':
      return summary.durationMs ?? -1;
    case 'cost':
      return summary.costUsd;
    case 'status':
      return summary.status;
    case 'hank':
      return summary.hankName.toLowerCase();
  }
};

/** How many executions are read at once: a big base directory must not run out of file handles. */
const READ_CONCURRENCY = 16;

/** `map` with at most `limit` calls in flight; results in input order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** `?status=failed,crashed`: a checked list, or undefined for every status. */
function statusFilter(wanted: readonly string[]): Set<ExecutionStatus> | undefined {
  if (wanted.length === 0) return undefined;
  const unknown = wanted.filter(
    (status) => !(EXECUTION_STATUSES as readonly string[]).includes(status),
  );
  if (unknown.length > 0)
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      `status: ${unknown.join(', ')} is not an execution status`,
      `Use ${EXECUTION_STATUSES.join(', ')} (comma-separated).`,
    );
  return new Set(wanted as ExecutionStatus[]);
}

/**
 * `GET /api/executions?status=&q=&offset=&limit=&sort=&order=`: every execution's summary,
 * filtered by status and by a case-insensitive text (id, hank, hank and data paths), sorted
 * (default: newest start first), then paged.
 */
export async function listExecutions(
  catalog: ExecutionCatalog,
  query: RawQuery<Routes['executions']>,
  now: Date = new Date(),
): Promise<ExecutionList> {
  const statuses = statusFilter(query.status);
  const text = query.q?.trim().toLowerCase() ?? '';
  const offset = integerParam('offset', query.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = integerParam('limit', query.limit, 50, 1, 1000);
  const sort = (query.sort ?? EXECUTION_SORT_KEYS[0]) as ExecutionSortKey;
  if (!EXECUTION_SORT_KEYS.includes(sort))
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      `sort: ${sort} is not a sort key`,
      `Use ${EXECUTION_SORT_KEYS.join(', ')}.`,
    );
  const direction = query.order === 'asc' ? 1 : -1;

  // An execution removed between the directory listing and its read is left out.
  const read = await mapLimited(await catalog.ids(), READ_CONCURRENCY, (id) =>
    catalog.facts(id, { listed: true }).catch(() => undefined),
  );
  const facts = read.filter((fact): fact is ExecutionFacts => fact !== undefined);
  const summaries = facts
    .map((fact) => executionSummary(fact, now))
    .filter((summary) => !statuses || statuses.has(summary.status))
    .filter(
      (summary) =>
        text === '' ||
        [summary.id, summary.hankName, summary.hankPath ?? '', summary.dataPath ?? ''].some(
          (field) => field.toLowerCase().includes(text),
        ),
    )
    .sort((a, b) => {
      const x = sortValue(a, sort);
      const y = sortValue(b, sort);
      // Ties (and equal start times) fall back to the id: directory names start with a time.
      if (x === y) return direction * a.id.localeCompare(b.id);
      return x < y ? -direction : direction;
    });
  return {
    executions: summaries.slice(offset, offset + limit),
    total: summaries.length,
    offset,
    limit,
  };
}

/** The whole execution in one read: summary, run tree, one bar per codon record, loops, lock. */
export function executionDetail(facts: ExecutionFacts, now: Date = new Date()): ExecutionDetail {
  const { state, lock } = facts;
  return {
    summary: executionSummary(facts, now),
    runTree: state ? runNodes(state) : [],
    bars: state ? codonBars(state) : [],
    loops: state ? planLoops(state) : [],
    blocks: state ? planBlocks(state) : [],
    // Never the token: the browser must not be able to drive the runtime itself.
    ...(lock
      ? {
          live: {
            pid: lock.pid,
            ...(lock.runId ? { runId: lock.runId } : {}),
            ...(lock.port !== undefined ? { port: lock.port } : {}),
            heartbeat: lock.lastHeartbeat,
          },
        }
      : {}),
  };
}

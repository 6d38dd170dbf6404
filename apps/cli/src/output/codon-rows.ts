import { recordTokens } from '@hankweave/inspection';
import { codonCost, executionThread } from '@hankweave/state';
import {
  type BudgetExceeded,
  type CodonExecution,
  type CodonStatus,
  type HankweaveState,
  isInterruption,
  type ParallelContext,
  type TokenUsage,
} from '@hankweave/types';
import { laneLabel } from './lanes.js';

/** A plan entry with what is known about it: the latest record on the execution thread. */
export interface CodonRow {
  codonId: string;
  name: string;
  status: CodonStatus | 'pending';
  startTime?: string;
  endTime?: string;
  cost: number;
  tokens?: TokenUsage;
  failure?: string;
  /** A failed codon that was interrupted (Ctrl-C, SIGTERM): a stop, shown as `interrupted`. */
  interrupted?: boolean;
  /** The budget limit that stopped the codon, if one did. */
  budgetExceeded?: BudgetExceeded;
  /** Why a `when` condition skipped the codon (absent for a skip a person asked for). */
  skipReason?: string;
  /** Where the codon sits in a parallel block: a branch's codon, the resolver, or the merge. */
  parallel?: ParallelContext;
  /** `parallel` as said to a person: `review/left`, `review resolver`, `review merge`. */
  lane?: string;
  record?: CodonExecution;
}

/**
 * One row per plan entry, in plan order (loops appear as they expand), joined with the latest
 * record of that codon on the execution thread; thread codons missing from the plan come last.
 */
export function codonRows(state: HankweaveState): CodonRow[] {
  const latest = new Map<string, CodonExecution>();
  for (const { codon } of executionThread(state).codons) {
    if (!latest.has(codon.codonId)) latest.set(codon.codonId, codon);
  }
  const rows: CodonRow[] = state.executionPlan.map((entry) => {
    const row = toRow(entry.codonId, entry.codon.name, latest.get(entry.codonId));
    const parallel = entry.parallelContext;
    return parallel ? { ...row, parallel, lane: laneLabel(parallel) } : row;
  });
  const planned = new Set(rows.map((row) => row.codonId));
  for (const [codonId, record] of latest)
    if (!planned.has(codonId)) rows.push(toRow(codonId, codonId, record));
  return rows;
}

function toRow(codonId: string, name: string, record: CodonExecution | undefined): CodonRow {
  if (!record) return { codonId, name, status: 'pending', cost: 0 };
  const failure = record.status === 'failed' ? record.failureReason.message : undefined;
  const skipReason =
    record.status === 'skipped' && record.skippedBy === 'condition' ? record.skipReason : undefined;
  const interrupted = record.status === 'failed' && isInterruption(record.failureReason);
  const tokens = recordTokens(record);
  const budgetExceeded = (record as { budgetExceeded?: BudgetExceeded | null }).budgetExceeded;
  const endTime =
    record.status === 'completed' || record.status === 'failed' || record.status === 'skipped'
      ? record.endTime
      : undefined;
  return {
    codonId,
    name,
    status: record.status,
    startTime: record.startTime,
    ...(endTime ? { endTime } : {}),
    cost: codonCost(record),
    ...(tokens ? { tokens } : {}),
    ...(failure ? { failure } : {}),
    ...(interrupted ? { interrupted } : {}),
    ...(budgetExceeded ? { budgetExceeded } : {}),
    ...(skipReason ? { skipReason } : {}),
    record,
  };
}

/**
 * Counts rows by status, in a stable order, skipping zeros: `4 completed, 1 pending`. An
 * interrupted codon counts as `interrupted`, not `failed`.
 */
export function countByStatus(rows: readonly CodonRow[]): string {
  const order = [
    'completed',
    'failed',
    'interrupted',
    'skipped',
    'running',
    'completing-sentinels',
    'initializing',
    'starting',
    'preparing',
    'pending',
  ];
  const counts = new Map<string, number>();
  for (const row of rows) {
    const status = row.interrupted ? 'interrupted' : row.status;
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const parts = order
    .filter((status) => counts.get(status))
    .map((status) => `${counts.get(status)} ${status}`);
  return parts.length > 0 ? parts.join(', ') : 'no codons';
}

/**
 * Every distinct checkpoint sha recorded on codon records, across all runs: the count
 * `hankweave checkpoints` lists. Every checkpoint field counts whatever the record's status: an
 * interrupted codon's `exit` checkpoint is kept in `skipCheckpoint` of a failed record.
 */
export function checkpointCount(state: HankweaveState): number {
  const shas = new Set<string>();
  for (const run of state.runs) {
    for (const codon of run.codons) {
      const record = codon as Partial<Record<(typeof CHECKPOINT_FIELDS)[number], string>>;
      for (const field of CHECKPOINT_FIELDS) {
        const sha = record[field];
        if (sha) shas.add(sha);
      }
    }
  }
  return shas.size;
}

const CHECKPOINT_FIELDS = [
  'rigSetupCheckpoint',
  'completionCheckpoint',
  'errorCheckpoint',
  'skipCheckpoint',
] as const;

/** What an execution has cost, split by who spent it. */
export interface CostBreakdown {
  /** The agents of every codon record (final, partial or live cost). */
  agents: number;
  /** The sentinels observing those codons. */
  sentinels: number;
  /** `agents + sentinels`: the same figure as `totalCost` of @hankweave/state. */
  total: number;
  /** How many runs the figures cover. */
  runs: number;
}

/**
 * Every record of every run (retries and work later rolled back were paid for too), split into
 * the agents' and the sentinels' share, so the summary and `status` can say what the total covers.
 */
export function costBreakdown(state: HankweaveState): CostBreakdown {
  let total = 0;
  let sentinels = 0;
  for (const run of state.runs) {
    for (const record of run.codons) {
      total += codonCost(record);
      sentinels += (record as { sentinels?: { totalCost?: number } }).sentinels?.totalCost ?? 0;
    }
  }
  return { agents: total - sentinels, sentinels, total, runs: state.runs.length };
}

import { createHash } from 'node:crypto';
import { executionThread } from '@hankweave/state';
import {
  type CodonExecution,
  type ExecutionCodonEntry,
  type HankweaveState,
  isParallelConfig,
  type ParallelConfig,
} from '@hankweave/types';
import { cutShort } from '../codon/retry-series.js';
import { entryCodon } from '../plan/planner.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';

// Where a parallel block stands, read from state.json alone: which codon each branch runs next,
// the checkpoint each branch's work tree must hold, and the checkpoint the block started from.
// A resume and a rollback therefore need no state of their own (the reference interpreter's
// rules: each branch is a lane with its own plan and its own thread).

/** The block a plan entry belongs to (its branches' codons, its resolver, its merge). */
export const blockIdOf = (entry: ExecutionCodonEntry | undefined): string | undefined =>
  entry?.parallelContext?.blockId;

/** The parallel block `blockId` of the hank. */
export function blockConfig(context: RuntimeContext, blockId: string): ParallelConfig | undefined {
  return context.config.hank.find(
    (item): item is ParallelConfig => isParallelConfig(item) && item.id === blockId,
  );
}

/** The plan entries of one branch, in order (loops expanded as the plan has them now). */
export const branchEntries = (
  plan: readonly ExecutionCodonEntry[],
  blockId: string,
  branchId: string,
): ExecutionCodonEntry[] =>
  plan.filter(
    (entry) =>
      entry.parallelContext?.blockId === blockId &&
      entry.parallelContext.role === 'branch' &&
      entry.parallelContext.branchId === branchId,
  );

/**
 * The checkpoint a record leaves for the plan to go on from: completed, skipped, or failed under
 * `onFailure: ignore` (not cut short). Undefined: the plan did not move past it.
 */
export function movedPastCheckpoint(
  record: CodonExecution,
  entry: ExecutionCodonEntry | undefined,
): string | undefined {
  switch (record.status) {
    case 'completed':
      return record.completionCheckpoint;
    case 'skipped':
      return record.skipCheckpoint;
    case 'failed':
      return entry && entryCodon(entry).onFailure === 'ignore' && !cutShort(record)
        ? record.errorCheckpoint
        : undefined;
    default:
      return undefined;
  }
}

/** Where a branch stands on the thread. */
export interface BranchProgress {
  /** The codon it runs next; undefined when the branch is done. */
  next: ExecutionCodonEntry | undefined;
  /** The checkpoint its work tree holds before `next`: its newest moved-past codon's, if any. */
  checkpoint: string | undefined;
  /** True when a codon of the branch is on the thread. */
  started: boolean;
}

/**
 * A branch's next codon: the entry after its newest codon on the thread that the plan moved
 * past, or, when a newer one failed (a crash, an interrupt, a failure not ignored), that one
 * again; its first entry when none of its codons is on the thread.
 */
export function branchProgress(
  state: HankweaveState,
  blockId: string,
  branchId: string,
): BranchProgress {
  const entries = branchEntries(state.executionPlan, blockId, branchId);
  const byId = new Map(entries.map((entry) => [entry.codonId, entry]));
  let failed: ExecutionCodonEntry | undefined;
  let started = false;
  for (const { codon: record } of executionThread(state).codons) {
    const entry = byId.get(record.codonId);
    if (!entry) continue;
    started = true;
    const checkpoint = movedPastCheckpoint(record, entry);
    if (checkpoint === undefined) {
      failed ??= entry;
      continue;
    }
    const next = failed ?? entries[entries.indexOf(entry) + 1];
    return { next, checkpoint, started };
  }
  return { next: failed ?? entries[0], checkpoint: undefined, started };
}

/**
 * The checkpoint the block started from: the newest moved-past codon on the thread before the
 * block's first record (or before now, when it has none), or the execution's initial checkpoint.
 * agentRoot holds it until the block merges.
 */
export function blockBase(state: HankweaveState, blockId: string): string {
  const entries = new Map(state.executionPlan.map((entry) => [entry.codonId, entry]));
  const thread = executionThread(state).codons;
  // Newest first: what came before the block is older than its oldest record on the thread.
  const oldest = thread.findLastIndex(
    ({ codon }) => blockIdOf(entries.get(codon.codonId)) === blockId,
  );
  for (const { codon: record } of thread.slice(oldest + 1)) {
    const entry = entries.get(record.codonId);
    if (blockIdOf(entry) === blockId) continue;
    const checkpoint = movedPastCheckpoint(record, entry);
    if (checkpoint !== undefined) return checkpoint;
  }
  return state.initialCheckpoint ?? '';
}

/**
 * The file- and ref-safe name of a branch's work tree (and of its checkpoints' git branch):
 * `{block}.{branch}`, characters outside `A-Z a-z 0-9 _ -` replaced, with a short hash of the
 * ids when anything was replaced so that two different ids never share a tree.
 */
export function branchTreeName(blockId: string, branchId: string): string {
  const clean = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48);
  const name = `${clean(blockId)}.${clean(branchId)}`;
  if (name === `${blockId}.${branchId}`) return name;
  const hash = createHash('sha256').update(`${blockId}\n${branchId}`).digest('hex').slice(0, 8);
  return `${name}-${hash}`;
}

/** The newest record of the block's resolver on the thread, when the plan moved past it. */
export function resolvedCheckpoint(
  context: RuntimeContext,
  resolver: ExecutionCodonEntry,
): string | undefined {
  const record = executionThread(context.store.state).codons.find(
    ({ codon }) => codon.codonId === resolver.codonId,
  )?.codon;
  return record ? movedPastCheckpoint(record, resolver) : undefined;
}

/** The branch a codon runs in, as its events carry it; undefined outside parallel branches. */
export function eventBranch(
  state: HankweaveState,
  codonId: string,
): { branch: { blockId: string; branchId: string } } | Record<string, never> {
  const place = state.executionPlan.find((entry) => entry.codonId === codonId)?.parallelContext;
  return place?.role === 'branch' && place.branchId !== undefined
    ? { branch: { blockId: place.blockId, branchId: place.branchId } }
    : {};
}

import { buildFileTree } from '@hankweave/files';
import { executionThread, totalCost } from '@hankweave/state';
import {
  type CodonExecution,
  type EventData,
  type HankweaveState,
  isTerminalCodonStatus,
} from '@hankweave/types';
import { eventBranch } from '../parallel/block-lanes.js';
import { emit, type RuntimeContext } from './runtime-context.js';

/** The codon fields of a `state.snapshot`. */
export type SnapshotCodons = Pick<
  EventData<'state.snapshot'>,
  'currentCodon' | 'activeCodons' | 'completedCodons'
>;

/**
 * Which codons a `state.snapshot` lists, from state.json alone: the running records and the
 * completed ones of the execution thread, oldest first. The thread holds every record of the
 * current run, branch records included (a parallel block's records are on it in the order they
 * started, which is also how `block-lanes.ts` finds where each branch stands), so a block's
 * concurrent codons are all there. A record that runs or ran in a parallel branch carries its
 * `branch` (as its `codon.started` does); `currentCodon` stays the bare record, the oldest running
 * one (the codon `codon.skip` without a `codonId` stops), so the original's readers see one codon
 * as before.
 */
export function snapshotCodons(state: HankweaveState): SnapshotCodons {
  // The thread is newest first; a snapshot lists oldest first.
  const records = executionThread(state)
    .codons.map(({ codon }) => codon)
    .reverse();
  const withBranch = (record: CodonExecution) => ({
    ...record,
    ...eventBranch(state, record.codonId),
  });
  const active = records.filter((record) => !isTerminalCodonStatus(record.status));
  const first = active[0];
  return {
    ...(first ? { currentCodon: first } : {}),
    activeCodons: active.map(withBranch),
    completedCodons: records.filter((record) => record.status === 'completed').map(withBranch),
  };
}

/** Emits `state.snapshot`: where the execution stands (sent after each codon and rollback). */
export function emitStateSnapshot(context: RuntimeContext, isRollingBack: boolean): void {
  const state = context.store.state;
  const snapshot = context.scanner.current;
  // Codon execution records, as the original's event schema carries them (reference §3.3),
  // plus every running codon for parallel blocks (see `snapshotCodons`).
  emit(context, 'state.snapshot', {
    ...snapshotCodons(state),
    fileTree: buildFileTree([...snapshot.keys()], {
      root: context.layout.agentRoot,
      stats: snapshot,
    }),
    totalCost: totalCost(state),
    totalTime: Date.now() - context.startedAt,
    isRollingBack,
  });
}

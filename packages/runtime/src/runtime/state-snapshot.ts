import { buildFileTree } from '@hankweave/files';
import { executionThread, totalCost } from '@hankweave/state';
import { isTerminalCodonStatus } from '@hankweave/types';
import { emit, type RuntimeContext } from './runtime-context.js';

/** Emits `state.snapshot`: where the execution stands (sent after each codon and rollback). */
export function emitStateSnapshot(context: RuntimeContext, isRollingBack: boolean): void {
  const state = context.store.state;
  const thread = executionThread(state);
  const active = thread.codons.find(({ codon }) => !isTerminalCodonStatus(codon.status));
  const snapshot = context.scanner.current;
  // Codon execution records, as the original's event schema carries them (reference §3.3): the
  // active codon's record (absent when none) and the completed records of the thread, oldest
  // first.
  emit(context, 'state.snapshot', {
    ...(active ? { currentCodon: active.codon } : {}),
    completedCodons: thread.codons
      .filter(({ codon }) => codon.status === 'completed')
      .map(({ codon }) => codon)
      .reverse(),
    fileTree: buildFileTree([...snapshot.keys()], {
      root: context.layout.agentRoot,
      stats: snapshot,
    }),
    totalCost: totalCost(state),
    totalTime: Date.now() - context.startedAt,
    isRollingBack,
  });
}

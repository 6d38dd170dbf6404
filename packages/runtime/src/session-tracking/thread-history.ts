import { type LoopVote, votesOf } from '@hankweave/sessions';
import { executionThread } from '@hankweave/state';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/**
 * A loop's recorded votes that count now, oldest first: those made by codon executions on the
 * execution thread (an iteration's earlier votes included, so a rollback that cuts off the
 * newest vote of an iteration lets the one before it count again). A vote of an execution that a
 * rollback or a resume cut off never decides again. Votes without a `run_id` (written before it
 * was recorded, or by the seed's tools) count.
 */
export function threadHistory(context: RuntimeContext, loopId: string): LoopVote[] {
  const votes = votesOf(context.sessions.history(loopId));
  if (!votes.some((vote) => typeof vote.run_id === 'string')) return votes;
  const onThread = new Set(
    executionThread(context.store.state).codons.map(
      ({ runId, codon }) => `${runId}\n${codon.codonId}`,
    ),
  );
  return votes.filter(
    (vote) => typeof vote.run_id !== 'string' || onThread.has(`${vote.run_id}\n${vote.codon_id}`),
  );
}

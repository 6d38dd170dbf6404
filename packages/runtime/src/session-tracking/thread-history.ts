import type { LoopIterationRecord } from '@hankweave/sessions';
import { executionThread } from '@hankweave/state';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/**
 * A loop's recorded decisions that count now: those made by codon executions on the execution
 * thread. A decision of an execution that a rollback or a resume cut off never decides again.
 * Records without a `run_id` (written before it was recorded, or by the seed's tools) count.
 */
export function threadHistory(context: RuntimeContext, loopId: string): LoopIterationRecord[] {
  const history = context.sessions.history(loopId);
  if (!history.some((record) => typeof record.run_id === 'string')) return [...history];
  const onThread = new Set(
    executionThread(context.store.state).codons.map(
      ({ runId, codon }) => `${runId}\n${codon.codonId}`,
    ),
  );
  return history.filter(
    (record) =>
      typeof record.run_id !== 'string' || onThread.has(`${record.run_id}\n${record.codon_id}`),
  );
}

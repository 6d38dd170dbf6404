import { executionThread } from '@hankweave/state';
import type { ExecutionCodonEntry, HankweaveState } from '@hankweave/types';

/**
 * The session a `continue-previous` codon resumes (reference §4.6): the most recent execution,
 * on the execution thread, of the plan entry just before it, which must have completed, or have
 * been skipped after at least one assistant message. Undefined when there is none.
 */
export function findContinuationSessionId(
  state: HankweaveState,
  plan: readonly ExecutionCodonEntry[],
  codonId: string,
): { previousCodonId?: string; sessionId?: string } {
  const index = plan.findIndex((entry) => entry.codonId === codonId);
  const previous = index > 0 ? plan[index - 1] : undefined;
  if (!previous) return {};
  for (const { codon } of executionThread(state).codons) {
    if (codon.codonId !== previous.codonId) continue;
    const record = codon as typeof codon & {
      claudeSessionId?: string;
      assistantMessageCount?: number;
    };
    const usable =
      record.status === 'completed' ||
      (record.status === 'skipped' && (record.assistantMessageCount ?? 0) > 0);
    if (usable && record.claudeSessionId)
      return { previousCodonId: previous.codonId, sessionId: record.claudeSessionId };
  }
  return { previousCodonId: previous.codonId };
}

import { executionThread } from '@hankweave/state';
import type { RuntimeContext } from './runtime-context.js';

/** Cost, tokens and duration of one loop iteration on the execution thread. */
export function iterationTotals(
  context: RuntimeContext,
  loopId: string,
  iteration: number,
): { durationMs: number; costUsd: number; tokensUsed: number } {
  let costUsd = 0;
  let tokensUsed = 0;
  let first: number | undefined;
  for (const { codon } of executionThread(context.store.state).codons) {
    if (codon.loopContext?.loopId !== loopId || codon.loopContext.iteration !== iteration) continue;
    const record = codon as typeof codon & {
      finalCost?: number;
      partialCost?: number;
      finalTokens?: { inputTokens: number; outputTokens: number };
      partialTokens?: { inputTokens: number; outputTokens: number };
    };
    costUsd += record.finalCost ?? record.partialCost ?? 0;
    const tokens = record.finalTokens ?? record.partialTokens;
    tokensUsed += (tokens?.inputTokens ?? 0) + (tokens?.outputTokens ?? 0);
    const started = Date.parse(codon.startTime);
    if (!Number.isNaN(started)) first = Math.min(first ?? started, started);
  }
  return {
    durationMs: first === undefined ? 0 : context.clock().getTime() - first,
    costUsd,
    tokensUsed,
  };
}

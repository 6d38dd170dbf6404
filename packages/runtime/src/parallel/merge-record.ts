import type { ExecutionCodonEntry, FailureReason } from '@hankweave/types';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import { beginCodon, moveCodon } from '../codon/codon-attempt.js';
import { CodonControl } from '../codon/codon-control.js';
import type { ConditionSkip } from '../plan/condition-gate.js';
import { type RuntimeContext, transition } from '../runtime/runtime-context.js';

/** How a block's merge ended: its record in state.json, under the block's id. */
export type MergeEnding =
  | { status: 'completed'; checkpointSha: string }
  | { status: 'skipped'; checkpointSha: string; condition: ConditionSkip }
  | { status: 'failed'; failureReason: FailureReason };

/**
 * Records the merge of a parallel block as the execution of its merge entry (codon id = block
 * id): started, then at once completed with the merged checkpoint, skipped with its block's
 * condition, or failed with the conflicts. On the thread, it is what moves the plan past the
 * block. Recorded only once the merge is durable (its commit written, agentRoot restored).
 */
export function recordMerge(
  context: RuntimeContext,
  input: {
    runId: string;
    entry: ExecutionCodonEntry;
    hint: CheckpointHint;
    ending: MergeEnding;
    /** The merge checkpoint this record made (recorded between its start and its end). */
    checkpoint?: { sha: string; branch: string };
  },
): void {
  const control = new CodonControl(input.entry.codonId);
  const attempt = beginCodon(context, {
    runId: input.runId,
    entry: input.entry,
    control,
    hint: input.hint,
  });
  if (input.checkpoint) {
    transition(context, {
      type: 'CheckpointCreated',
      data: {
        runId: input.runId,
        codonId: input.entry.codonId,
        checkpointType: 'merge',
        sha: input.checkpoint.sha,
        branch: input.checkpoint.branch,
      },
    });
  }
  const common = { exitCode: 0, resultMessageReceived: false, contextExceeded: false };
  const { ending } = input;
  switch (ending.status) {
    case 'completed':
      moveCodon(attempt, { to: 'starting', metadata: {} });
      moveCodon(attempt, {
        to: 'completed',
        metadata: { ...common, checkpointSha: ending.checkpointSha },
      });
      return;
    case 'skipped':
      moveCodon(attempt, {
        to: 'skipped',
        metadata: {
          ...common,
          checkpointSha: ending.checkpointSha,
          skippedDuring: 'preparing',
          skippedBy: 'condition',
          skipReason: ending.condition.reason,
          conditionOf: ending.condition.of,
        },
      });
      return;
    case 'failed':
      moveCodon(attempt, {
        to: 'failed',
        metadata: {
          ...common,
          exitCode: 1,
          failedDuring: 'preparing',
          failureReason: ending.failureReason,
        },
      });
  }
}

import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import { performRollback } from '../rollback/perform-rollback.js';
import { type RollbackRequest, resolveRollbackTarget } from '../rollback/resolve-target.js';
import type { RuntimeContext } from './runtime-context.js';

/** What a rollback answers. */
export interface RollbackResult {
  toRun: string;
  sha: string;
  codonId: string | null;
}

/**
 * Resolves the request's checkpoint and rolls back to it. `skipRigOf` is the codon whose next run
 * skips its rig: a rig-setup target leaves that codon's rig in place.
 *
 * @throws {RuntimeError} RUNTIME_NO_CHECKPOINT
 */
export async function rollBack(
  context: RuntimeContext,
  hint: CheckpointHint,
  request: RollbackRequest,
  autoRestart: boolean,
): Promise<{ result: RollbackResult; skipRigOf: string | undefined }> {
  const target = await resolveRollbackTarget(context, request);
  const result = await performRollback(context, hint, target, autoRestart);
  return {
    result: { toRun: result.toRun, sha: target.sha, codonId: target.codonId },
    skipRigOf: target.checkpointType === 'rig-setup' && target.codonId ? target.codonId : undefined,
  };
}

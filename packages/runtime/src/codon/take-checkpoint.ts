import type { CheckpointType } from '@hankweave/types';
import { checkpointListing, listAgentRoot, recordListing } from '../rollback/checkpoint-listing.js';
import { type RuntimeContext, transition } from '../runtime/runtime-context.js';
import type { CheckpointHint } from './checkpoint-hint.js';

/**
 * Commits the tracked files as a checkpoint on the run's branch and records it
 * (`CheckpointCreated`). Returns the sha.
 *
 * @throws whatever the checkpoint engine throws; nothing is recorded then.
 */
export async function takeCheckpoint(
  context: RuntimeContext,
  hint: CheckpointHint,
  input: {
    type: CheckpointType;
    runId: string;
    codonId: string;
    codonName: string;
    durationMs: number;
    patterns: readonly string[];
  },
): Promise<string> {
  // One listing gives both the tracked files and the listing recorded with the checkpoint.
  const tree = await listAgentRoot(context);
  const files =
    input.patterns.length === 0
      ? []
      : context.resolver.resolveListed(context.layout.agentRoot, tree, input.patterns);
  const changed = hint.current();
  const result = await context.engine.checkpoint({
    type: input.type,
    codonId: input.codonId,
    codonName: input.codonName,
    // A branch checkpoints on a git branch of its own: one writer per git branch.
    runId: context.branch ? `${input.runId}.${context.branch.name}` : input.runId,
    durationMs: Math.round(input.durationMs),
    files,
    ...(changed ? { changed } : {}),
  });
  hint.checkpointed();
  for (const skipped of result.skipped) {
    context.log.warn(
      `Checkpoint ${input.type}:${input.codonId} left out ${skipped.path} (${skipped.reason})`,
    );
  }
  // What else agentRoot holds, durable before the checkpoint is recorded: a rollback here moves
  // aside whatever is not in one or the other (issue 38).
  const left = new Set(result.skipped.map((skipped) => skipped.path));
  await recordListing(
    context,
    checkpointListing(
      result.sha,
      tree,
      files.filter((path) => !left.has(path)),
    ),
  );
  transition(context, {
    type: 'CheckpointCreated',
    data: {
      runId: input.runId,
      codonId: input.codonId,
      checkpointType: input.type,
      sha: result.sha,
      branch: result.branch,
    },
  });
  context.log.info(
    `Checkpoint ${input.type}:${input.codonId} → ${result.sha.slice(0, 7)} (${files.length} file(s), ${result.hashed} hashed)`,
  );
  return result.sha;
}

import type { RestoreOptions } from '@hankweave/checkpoints';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import { resolveTracked } from '../codon/tracked-files.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/** The restore's options, and how the engine learns what changed (for the log). */
export interface RestoreInput {
  options: RestoreOptions;
  /** `hinted`: the engine looks only at the paths named in `changed`; `walk`: at every file. */
  by: 'hinted' | 'walk';
}

/**
 * What a rollback's restore is told: the files the tracked patterns match now and, while the
 * checkpoint hint is valid (this process took the last checkpoint and has scanned every change
 * since), the paths changed since that checkpoint, so the engine skips its stat walk. Those are
 * the hint's, plus what one more scan finds now: files changed after the last scan (a stopped
 * agent's last writes, anything done behind the runtime's back) and the rollback's own moves (rig
 * copies removed, archives back, debris aside). On a big tree that scan comes from agentRoot's
 * file events, and its snapshot is the tracked list: no walk at all.
 */
export async function restoreInput(
  context: RuntimeContext,
  hint: CheckpointHint,
  patterns: readonly string[],
): Promise<RestoreInput> {
  const since = hint.current();
  if (since === undefined || patterns.length === 0) {
    return { options: { tracked: resolveTracked(context, patterns) }, by: 'walk' };
  }
  const { snapshot, changes, warnings } = await context.scanner.scanWatched(patterns);
  for (const warning of warnings) context.log.warn(`File scan: ${warning.message}`);
  const changed = new Set(since);
  for (const change of [...changes.created, ...changes.modified, ...changes.deleted]) {
    changed.add(change.path);
  }
  return { options: { tracked: [...snapshot.keys()], changed: [...changed] }, by: 'hinted' };
}

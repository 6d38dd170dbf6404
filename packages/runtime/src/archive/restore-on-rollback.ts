import { emit, type RuntimeContext, reportError } from '../runtime/runtime-context.js';
import { archiveLocation } from './archive-after-codon.js';
import { restoreFromArchive } from './archive-store.js';

/**
 * The archive step of a rollback (reference §5.6, §5.9): the manifest entries whose checkpoint
 * lies between the target and the current position (`git rev-list target..HEAD`, so the target's
 * own archive stays archived) are moved back into agentRoot, one `rollback.archiveRestore` per
 * codon whose archive was restored. The original put the target SHA in that event's `codonId`
 * (a quirk); we write the codon id (the loop id for a loop's own list). Run it before the work
 * tree is reset, so the reset then settles every tracked file exactly to the target.
 */
export async function restoreArchivesForRollback(
  context: RuntimeContext,
  targetSha: string,
): Promise<void> {
  let undone: Set<string>;
  try {
    const head = await context.engine.head();
    undone = new Set(
      head.sha === targetSha ? [] : await context.engine.shasBetween(targetSha, head.sha),
    );
  } catch (error) {
    context.log.warn(`Archive restore skipped: ${(error as Error).message}`);
    return;
  }
  if (undone.size === 0) return;
  let reports: Awaited<ReturnType<typeof restoreFromArchive>>;
  try {
    reports = await restoreFromArchive(
      archiveLocation(context),
      (entry) => entry.checkpointSha !== null && undone.has(entry.checkpointSha),
    );
  } catch (error) {
    // The manifest is unreadable or unwritable: every path is still where it was (at its source
    // or at its archive path), so the rollback goes on and a later one can restore them.
    reportError(context, `Archive restore failed: ${(error as Error).message}`, {
      severity: 'operation',
    });
    return;
  }
  for (const report of reports) {
    const { restoredPaths, failedPaths } = report;
    emit(context, 'rollback.archiveRestore', {
      codonId: report.codonId,
      restoredPaths,
      ...(failedPaths.length > 0 ? { failedPaths } : {}),
      status:
        failedPaths.length === 0 ? 'completed' : restoredPaths.length === 0 ? 'failed' : 'partial',
    });
  }
}

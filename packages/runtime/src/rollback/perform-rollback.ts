import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { relativeInside } from '@hankweave/durable-io';
import { currentRun, executionThread, type SiblingRecords, siblingRecords } from '@hankweave/state';
import type { CodonExecution, HankweaveState } from '@hankweave/types';
import { restoreArchivesForRollback } from '../archive/restore-on-rollback.js';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import { patternsUpTo } from '../codon/tracked-files.js';
import { DATA_LINK_NAME } from '../execution/layout.js';
import { blockBase } from '../parallel/block-lanes.js';
import { entryCodon } from '../plan/planner.js';
import { endRun, startRun } from '../runtime/runs.js';
import { emit, type RuntimeContext } from '../runtime/runtime-context.js';
import { emitStateSnapshot } from '../runtime/state-snapshot.js';
import { unsafePathMessage } from '../sandbox/safe-paths.js';
import { type DebrisMove, moveDebris } from './move-debris.js';
import type { RollbackTarget } from './resolve-target.js';
import { restoreInput } from './restore-input.js';

export interface RollbackResult {
  fromRun: string | null;
  toRun: string;
  target: RollbackTarget;
}

/**
 * The rollback sequence of seed 002 and reference §5.9: announce the codons being undone (newest
 * first) and remove their rig copies, restore the target checkpoint (tracked files match it
 * exactly; HEAD is detached there, so every branch's history is kept), end the old run, and open a
 * continuation run from the target; the next checkpoint starts a new `run-*` branch from it.
 */
export async function performRollback(
  context: RuntimeContext,
  hint: CheckpointHint,
  target: RollbackTarget,
  autoRestart: boolean,
): Promise<RollbackResult> {
  const state = context.store.state;
  const thread = executionThread(state);
  const fromRun = currentRun(state)?.runId ?? thread.runId ?? null;
  const position = thread.codons.findIndex(({ codon }) => holds(codon, target.sha));
  // A parallel branch's codon: the sibling branches' later records of its block stay on the
  // thread (`siblingRecords`), so they are not undone, and the new run continues the thread's
  // own run: the target's run may hold records of the target's branch that the thread undid.
  const siblings =
    position === -1 || target.codonId === null
      ? undefined
      : siblingRecords(state.executionPlan, target.codonId);
  // Codons newer than the target on the thread (newest first); none for a checkpoint elsewhere.
  const undone =
    position === -1
      ? target.codonId === null
        ? thread.codons
        : []
      : keptOut(thread.codons.slice(0, position), siblings);
  const targetName = target.codonId ? nameOf(context, target.codonId) : 'Initial checkpoint';
  emit(context, 'rollback.started', {
    fromRun: fromRun ?? '',
    fromCodon: thread.codons[0]?.codon.codonId ?? null,
    toCodon: target.codonId,
    toCheckpoint: target.sha,
    checkpointType: target.checkpointType,
    codonsToProcess: undone.map(({ codon }) => codon.codonId),
  });
  // Archived files come back first: the rig cleanup below then removes the undone codons' rig
  // copies (archived ones too), and the reset settles the tracked files to the target.
  // A branch's checkpoint is in its work tree: agentRoot goes back to before the block, and the
  // branch's work tree is restored from the thread when the block runs again.
  const targetEntry = state.executionPlan.find((entry) => entry.codonId === target.codonId);
  const rootSha =
    targetEntry?.parallelContext?.role === 'branch'
      ? blockBase(state, targetEntry.parallelContext.blockId)
      : target.sha;
  await restoreArchivesForRollback(context, rootSha);
  const totalSteps = undone.length + 1;
  for (const [index, { codon }] of undone.entries()) {
    emit(context, 'rollback.progress', {
      currentStep: index + 1,
      totalSteps,
      message: `Rolling back through ${codon.codonId}`,
    });
    // A parallel branch's rig was set up in its own work tree, never in agentRoot.
    if (!inBranch(state, codon.codonId)) await cleanRig(context, codon.codonId);
  }
  emit(context, 'rollback.progress', {
    currentStep: totalSteps,
    totalSteps,
    message: 'Applying final checkpoint',
  });
  // Everything made since the checkpoint, tracked or not, goes aside first (never deleted): an
  // interrupted attempt's files are in no checkpoint. The restore then only rewrites.
  const debris = await moveDebris(context, rootSha, fromRun ?? target.runId ?? 'rollback');
  if (debris) reportDebris(context, debris);
  // What the tracked patterns match now, as of the newest codon: files an attempt made before it
  // crashed or was stopped (so no checkpoint has them) are undone with the rest.
  const newest = thread.codons[0]?.codon.codonId ?? null;
  const input = await restoreInput(context, hint, patternsUpTo(state.executionPlan, newest));
  const restored = await context.engine.restore(rootSha, input.options);
  context.log.info(
    `Rollback restore of ${rootSha.slice(0, 7)}: ${input.by === 'hinted' ? `${input.options.changed?.length} path(s) changed since the last checkpoint, no walk of the checkpoint engine` : 'the checkpoint engine walks every tracked file'}`,
  );
  hint.invalidate();
  context.scanner.reset();
  emit(context, 'rollback.codonCheckpoint', {
    codonId: target.codonId ?? '',
    codonName: targetName,
    checkpoint: target.sha,
    checkpointType: target.checkpointType,
    message: `Reset to target checkpoint ${target.sha.slice(0, 7)} (${target.checkpointType}): ${restored.written.length} file(s) written, ${restored.deleted.length} deleted`,
  });
  if (fromRun) endRun(context, fromRun, 'completed');
  const toRun = startRun(context, {
    type: 'continuation',
    source: {
      runId: (siblings ? thread.runId : undefined) ?? target.runId ?? fromRun ?? '',
      afterCodon: target.codonId,
      checkpointSha: target.sha,
    },
    reason: 'rollback',
  });
  emit(context, 'rollback.completed', {
    fromRun: fromRun ?? '',
    toRun,
    checkpoint: target.sha,
    codonId: target.codonId,
    codonName: target.codonId ? targetName : null,
    checkpointType: target.checkpointType,
    autoRestart,
    ...(debris ? { debris: debrisSummary(debris) } : {}),
  });
  emitStateSnapshot(context, false);
  context.log.info(
    `Rolled back to ${target.sha.slice(0, 7)} (${target.checkpointType} of ${target.codonId ?? 'the start'}); run ${toRun} continues from there`,
  );
  return { fromRun, toRun, target };
}

/**
 * The records newer than a rollback's target (newest first) less those that stay on the thread:
 * after a parallel branch's codon, the sibling branches' records up to the block's end.
 */
function keptOut<T extends { codon: CodonExecution }>(
  newer: T[],
  siblings: SiblingRecords | undefined,
): T[] {
  if (!siblings) return newer;
  const stays = new Set<T>();
  // Oldest first from the target, as the thread keeps them.
  for (const entry of [...newer].reverse()) {
    const verdict = siblings(entry.codon);
    if (verdict === 'stop') break;
    if (verdict === 'keep') stays.add(entry);
  }
  return newer.filter((entry) => !stays.has(entry));
}

/** The event's view of a move: every count, the first paths (the manifest has them all). */
function debrisSummary(debris: DebrisMove) {
  return {
    directory: debris.directory,
    count: debris.files.length,
    files: debris.files.slice(0, DEBRIS_FILES_IN_EVENT),
    removedDirectories: debris.removedDirectories.length,
    ...(debris.failed.length > 0 ? { failed: debris.failed.slice(0, DEBRIS_FILES_IN_EVENT) } : {}),
  };
}

const DEBRIS_FILES_IN_EVENT = 100;

function reportDebris(context: RuntimeContext, debris: DebrisMove): void {
  if (debris.files.length > 0) {
    const shown = debris.files.slice(0, 5).join(', ');
    const more = debris.files.length > 5 ? ` and ${debris.files.length - 5} more` : '';
    context.log.info(
      `Moved ${debris.files.length} file(s) made since the checkpoint out of agentRoot into ${debris.directory}/agentRoot: ${shown}${more}`,
    );
  }
  for (const { path, error } of debris.failed) {
    context.log.warn(`Rollback: agentRoot/${path} was not moved aside (${error})`);
  }
}

function holds(record: CodonExecution, sha: string): boolean {
  const fields = record as unknown as Record<string, unknown>;
  return ['rigSetupCheckpoint', 'completionCheckpoint', 'errorCheckpoint', 'skipCheckpoint'].some(
    (field) => fields[field] === sha,
  );
}

function nameOf(context: RuntimeContext, codonId: string): string {
  const entry = context.store.state.executionPlan.find(
    (candidate) => candidate.codonId === codonId,
  );
  return entry ? entryCodon(entry).name : codonId;
}

/** Removes what a rolled-back codon's rig copied into agentRoot (`rollback.rigCleanup`). */
async function cleanRig(context: RuntimeContext, codonId: string): Promise<void> {
  const entry = context.store.state.executionPlan.find(
    (candidate) => candidate.codonId === codonId,
  );
  if (!entry) return;
  const codon = entryCodon(entry);
  const directories = (codon.rigSetup ?? []).flatMap((op) =>
    op.type === 'copy' ? [op.copy.to] : [],
  );
  if (directories.length === 0) return;
  emit(context, 'rollback.rigCleanup', {
    codonId,
    codonName: codon.name,
    directories,
    status: 'started',
  });
  const failedCleanups: { directory: string; error: string }[] = [];
  for (const directory of directories) {
    // Only paths strictly inside agentRoot: never the root itself, never outside it, never the
    // user's data behind the data link.
    const inside = relativeInside(context.layout.agentRoot, directory);
    if (!inside || inside === DATA_LINK_NAME || inside.startsWith(`${DATA_LINK_NAME}/`)) continue;
    const path = resolve(context.layout.agentRoot, directory);
    // The codon being undone may have replaced a directory on the way by a link to anywhere.
    const unsafe = await unsafePathMessage(
      context.layout.agentRoot,
      inside,
      `the rig copy target "${directory}"`,
    );
    if (unsafe) {
      context.log.warn(`Rollback rig cleanup of ${codonId}: ${unsafe}`);
      failedCleanups.push({ directory, error: unsafe });
      continue;
    }
    try {
      await rm(path, { recursive: true, force: true });
    } catch (error) {
      failedCleanups.push({ directory, error: (error as Error).message });
    }
  }
  const status =
    failedCleanups.length === 0
      ? 'completed'
      : failedCleanups.length === directories.length
        ? 'failed'
        : 'partial';
  emit(context, 'rollback.rigCleanup', {
    codonId,
    codonName: codon.name,
    directories,
    status,
    successfulCleanups: directories.length - failedCleanups.length,
    ...(failedCleanups.length > 0 ? { failedCleanups } : {}),
  });
}

const inBranch = (state: HankweaveState, codonId: string): boolean =>
  state.executionPlan.some(
    (entry) => entry.codonId === codonId && entry.parallelContext?.role === 'branch',
  );

import { executionThread } from '@hankweave/state';
import type { CheckpointType, CodonExecution, HankweaveState } from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import { resumePoint } from '../runtime/resume-point.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/** What a rollback command names. */
export type RollbackRequest =
  | { kind: 'last-success' }
  /** Where the next start continues (see `resumePoint`): crash recovery's target. */
  | { kind: 'resume-point' }
  | {
      kind: 'codon';
      codonId: string;
      checkpointType: 'start' | 'end' | 'rig-setup' | 'completed' | 'error' | 'skipped';
    }
  | { kind: 'checkpoint'; sha: string };

/** A resolved rollback target. `codonId` is null for the execution's initial checkpoint. */
export interface RollbackTarget {
  sha: string;
  codonId: string | null;
  checkpointType: CheckpointType | 'initial';
  /** The run whose record holds the checkpoint (the continuation's source). */
  runId: string | null;
}

const FIELDS: Record<'rig-setup' | 'completed' | 'error' | 'skipped', string> = {
  'rig-setup': 'rigSetupCheckpoint',
  completed: 'completionCheckpoint',
  error: 'errorCheckpoint',
  skipped: 'skipCheckpoint',
};
const START_ORDER = ['rig-setup', 'completed', 'error', 'skipped'] as const;
const END_ORDER = ['completed', 'error', 'skipped', 'rig-setup'] as const;

type Located = { record: CodonExecution; runId: string };

/** Codon records, thread first (newest first), then every other run (newest first). */
function records(state: HankweaveState): Located[] {
  const thread = executionThread(state).codons.map(({ codon, runId }) => ({
    record: codon,
    runId,
  }));
  const seen = new Set(thread.map((entry) => entry.record));
  const rest = state.runs
    .flatMap((run) => [...run.codons].reverse().map((record) => ({ record, runId: run.runId })))
    .filter((entry) => !seen.has(entry.record));
  return [...thread, ...rest];
}

const shaOf = (record: CodonExecution, type: keyof typeof FIELDS): string | undefined =>
  (record as unknown as Record<string, string | undefined>)[FIELDS[type]];

/**
 * Resolves a rollback request to a checkpoint (seed 002 "Rolling Back"; reference §3.2): the last
 * success (else the execution's initial checkpoint), a codon's checkpoint by type or by the
 * `start`/`end` aliases, or a (partial) sha across all runs.
 *
 * @throws {RuntimeError} RUNTIME_NO_CHECKPOINT when nothing matches; the engine's
 *   CHECKPOINT_AMBIGUOUS / CHECKPOINT_NOT_FOUND for a bad sha.
 */
export async function resolveRollbackTarget(
  context: RuntimeContext,
  request: RollbackRequest,
): Promise<RollbackTarget> {
  const state = context.store.state;
  const all = records(state);
  if (request.kind === 'last-success' || request.kind === 'resume-point') {
    const point = request.kind === 'resume-point' ? resumePoint(context) : undefined;
    if (point) return point;
    for (const { record, runId } of request.kind === 'last-success' ? all : []) {
      const sha = shaOf(record, 'completed');
      if (record.status === 'completed' && sha)
        return { sha, codonId: record.codonId, checkpointType: 'completed', runId };
    }
    if (state.initialCheckpoint)
      return {
        sha: state.initialCheckpoint,
        codonId: null,
        checkpointType: 'initial',
        runId: null,
      };
    throw new RuntimeError(
      'RUNTIME_NO_CHECKPOINT',
      'No checkpoints found in execution history: nothing has been checkpointed yet, so there is nothing to roll back to. Run a codon first (codon.next).',
      {},
    );
  }
  if (request.kind === 'codon') {
    const candidates = all.filter(({ record }) => record.codonId === request.codonId);
    if (candidates.length === 0) {
      throw new RuntimeError(
        'RUNTIME_NO_CHECKPOINT',
        `Codon ${request.codonId} has not run in this execution; see \`hankweave checkpoints\` for what can be restored`,
        { details: { codonId: request.codonId } },
      );
    }
    const order =
      request.checkpointType === 'start'
        ? START_ORDER
        : request.checkpointType === 'end'
          ? END_ORDER
          : [request.checkpointType];
    for (const { record, runId } of candidates) {
      for (const type of order) {
        const sha = shaOf(record, type);
        if (sha) return { sha, codonId: record.codonId, checkpointType: type, runId };
      }
    }
    throw new RuntimeError(
      'RUNTIME_NO_CHECKPOINT',
      `Codon ${request.codonId} has no ${request.checkpointType} checkpoint`,
      { details: { codonId: request.codonId, checkpointType: request.checkpointType } },
    );
  }
  const sha = await context.engine.resolve(request.sha);
  for (const { record, runId } of all) {
    for (const type of START_ORDER) {
      if (shaOf(record, type) === sha)
        return { sha, codonId: record.codonId, checkpointType: type, runId };
    }
  }
  if (sha === state.initialCheckpoint || sha === context.engine.initialCheckpoint) {
    return { sha, codonId: null, checkpointType: 'initial', runId: null };
  }
  // A checkpoint the state does not reference (an exit checkpoint, say): its message knows.
  const info = (await context.engine.list()).find((checkpoint) => checkpoint.sha === sha);
  if (!info)
    throw new RuntimeError(
      'RUNTIME_NO_CHECKPOINT',
      `${request.sha} is not a checkpoint of this execution`,
      { details: { sha: request.sha } },
    );
  return { sha, codonId: info.codonId, checkpointType: info.type, runId: info.runId };
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointEngine } from '@hankweave/checkpoints';
import { executionLayout, readExecutionMeta } from '@hankweave/runtime/layout';
import { readState } from '@hankweave/state';
import type { ExecutionMeta, HankweaveState } from '@hankweave/types';
import { InspectionError } from './errors.js';
import { readOnlyFs } from './read-only-fs.js';
import { regularFilesFs } from './regular-files-fs.js';

/** The state of an execution, read without the lock (safe while a runtime writes it). */
export async function readExecutionState(executionDir: string): Promise<HankweaveState> {
  const { state } = await readState(executionLayout(executionDir).hankweaveDir, {
    fs: regularFilesFs,
  });
  return state;
}

/** `execution-meta.json`, or undefined for a directory a runtime never finished setting up. */
export async function readMeta(executionDir: string): Promise<ExecutionMeta | undefined> {
  return readExecutionMeta(executionLayout(executionDir).metaFile).catch(() => undefined);
}

/**
 * Opens the shadow git repository for reading only: it must exist (inspection never creates
 * one), and every write the engine would make while opening is dropped (see `readOnlyFs`).
 */
export async function openCheckpointsReadOnly(executionDir: string): Promise<CheckpointEngine> {
  const gitDir = join(executionLayout(executionDir).checkpointsDir, '.hankweavecheckpoints');
  if (!existsSync(join(gitDir, 'HEAD'))) {
    throw new InspectionError(
      'INSPECTION_NOT_FOUND',
      `${executionDir} has no checkpoints yet (no ${gitDir})`,
      'Checkpoints appear once a codon has run; start the hank with `hankweave <hank> <data>`.',
    );
  }
  return CheckpointEngine.open({ executionDir, fs: readOnlyFs, fsync: false });
}

/** Where the event journal of an execution is. */
export const journalPath = (executionDir: string): string =>
  join(executionLayout(executionDir).eventsDir, 'events.jsonl');

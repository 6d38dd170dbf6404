import type { Dirent } from 'node:fs';
import type { Fs } from '@hankweave/durable-io';
import type { HankweaveState, ValidationWarning } from '@hankweave/types';
import type { CheckpointExists } from '../options.js';

const CHECKPOINT_FIELDS = [
  'rigSetupCheckpoint',
  'completionCheckpoint',
  'errorCheckpoint',
  'skipCheckpoint',
] as const;

/** Every checkpoint SHA the state refers to, with where it is referenced (first place only). */
export const referencedCheckpoints = (state: HankweaveState): Map<string, string> => {
  const refs = new Map<string, string>();
  const add = (sha: unknown, where: string): void => {
    // An empty SHA is how a retry continuation says "no checkpoint" (reference §5.5).
    if (typeof sha === 'string' && sha !== '' && !refs.has(sha)) refs.set(sha, where);
  };
  add(state.initialCheckpoint, 'initialCheckpoint');
  for (const run of state.runs) {
    const start = run.startingConditions;
    if (start.type === 'fresh') add(start.initialCheckpointSha, `run '${run.runId}' start`);
    else add(start.source.checkpointSha, `run '${run.runId}' continuation source`);
    for (const codon of run.codons) {
      for (const field of CHECKPOINT_FIELDS) {
        add(
          (codon as Record<string, unknown>)[field],
          `${field} of codon '${codon.codonId}' in run '${run.runId}'`,
        );
      }
    }
  }
  return refs;
};

/** `orphaned_folder`: directories under `runs/` with no run of that id in the state. */
export const orphanedFolderWarnings = async (
  state: HankweaveState,
  fs: Fs,
  runsDir: string,
): Promise<ValidationWarning[]> => {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(runsDir, { withFileTypes: true });
  } catch {
    // Missing, or unreadable: a warning that cannot be checked must not stop the state loading.
    return [];
  }
  const known = new Set(state.runs.map((run) => run.runId));
  return entries
    .filter((entry) => entry.isDirectory() && !known.has(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      type: 'orphaned_folder' as const,
      message:
        `Run folder runs/${name} has no run in state.json (the state was reset or restored from ` +
        'an older backup). Its agent logs are kept for you; delete the folder once you no ' +
        'longer need them.',
    }));
};

/** `missing_checkpoint`: SHAs the state refers to that `checkpointExists` does not know. */
export const missingCheckpointWarnings = async (
  state: HankweaveState,
  checkpointExists: CheckpointExists,
): Promise<ValidationWarning[]> => {
  const refs = [...referencedCheckpoints(state)];
  const exists = await Promise.all(refs.map(([sha]) => checkpointExists(sha)));
  return refs
    .filter((_, index) => !exists[index])
    .map(([sha, where]) => ({
      type: 'missing_checkpoint' as const,
      message:
        `Checkpoint ${sha} (${where}) is not in the checkpoint repository; rolling back to it ` +
        'will fail. Pick another checkpoint, or restore .hankweave/checkpoints from a backup.',
    }));
};

const EPSILON = 1e-9;

/**
 * `cost_mismatch`: a codon's cached `sentinels.totalCost` differs from the sum of its sentinels'
 * own `totalCost`, the only cost the file stores twice.
 */
export const costMismatchWarnings = (state: HankweaveState): ValidationWarning[] => {
  const warnings: ValidationWarning[] = [];
  for (const run of state.runs) {
    for (const codon of run.codons) {
      const sentinels = (codon as { sentinels?: Record<string, unknown> }).sentinels;
      if (sentinels === undefined) continue;
      const list = (sentinels.loaded ?? sentinels.executed) as { totalCost: number }[] | undefined;
      if (list === undefined) continue;
      const sum = list.reduce((total, sentinel) => total + sentinel.totalCost, 0);
      const cached = sentinels.totalCost as number;
      if (Math.abs(sum - cached) > EPSILON * Math.max(1, Math.abs(sum))) {
        warnings.push({
          type: 'cost_mismatch',
          message:
            `Codon '${codon.codonId}' in run '${run.runId}' records sentinels.totalCost ` +
            `${cached} but its sentinels add up to ${sum}; cost reports use ${cached}. Check ` +
            'the sentinel outputs under .hankweave/sentinels if the difference matters.',
        });
      }
    }
  }
  return warnings;
};

import { type Fs, nodeFs } from '@hankweave/durable-io';
import type { HankweaveState, StateValidation, ValidationWarning } from '@hankweave/types';
import type { CheckpointExists } from '../options.js';
import { statePaths } from '../paths.js';
import { validateStructure } from './structure.js';
import {
  costMismatchWarnings,
  missingCheckpointWarnings,
  orphanedFolderWarnings,
} from './warnings.js';

/** Options of {@link validateState}. */
export interface ValidateStateOptions {
  /** The `.hankweave` directory; enables the `orphaned_folder` check of its `runs/`. */
  hankweaveDir?: string;
  fs?: Fs;
  /** Enables the `missing_checkpoint` check. */
  checkpointExists?: CheckpointExists;
}

/**
 * Validates a state as seed 000 "State Validation" describes: errors (`corrupted_data`,
 * `invalid_codon`, `missing_run`) mean the state cannot be continued from; warnings
 * (`orphaned_folder`, `missing_checkpoint`, `cost_mismatch`) are worth reporting. Each message
 * says what to do. Accepts unparsed JSON too.
 */
export const validateState = async (
  data: unknown,
  options: ValidateStateOptions = {},
): Promise<StateValidation> => {
  const { state, errors } = validateStructure(data);
  const warnings = state === undefined ? [] : await stateWarnings(state, options);
  return { valid: errors.length === 0, errors, warnings };
};

/** The warnings of a structurally valid state. */
export const stateWarnings = async (
  state: HankweaveState,
  options: ValidateStateOptions,
): Promise<ValidationWarning[]> => {
  const fs = options.fs ?? nodeFs;
  const [orphans, checkpoints] = await Promise.all([
    options.hankweaveDir === undefined
      ? []
      : orphanedFolderWarnings(state, fs, statePaths(options.hankweaveDir).runsDir),
    options.checkpointExists === undefined
      ? []
      : missingCheckpointWarnings(state, options.checkpointExists),
  ]);
  return [...orphans, ...checkpoints, ...costMismatchWarnings(state)];
};

import type { Fs } from '@hankweave/durable-io';
import type { HankweaveState, StateValidation } from '@hankweave/types';
import type { CheckpointExists, StateLogger } from '../options.js';
import { loadState, type RecoveryReport, type StateSource } from '../persistence/load-state.js';

/** Options of {@link readState}. */
export interface ReadStateOptions {
  fs?: Fs;
  /** Enables the `missing_checkpoint` warning. */
  checkpointExists?: CheckpointExists;
  /** Default: silent (everything is in the result). */
  logger?: StateLogger;
}

/** What {@link readState} returns. */
export interface ReadStateResult {
  state: HankweaveState;
  validation: StateValidation;
  /** `primary` (state.json), `backup` (state.json.bak) or `fresh` (neither was usable). */
  source: StateSource;
  /** Why that source, which files were rejected, whether a save was interrupted. */
  recovery: RecoveryReport;
}

/**
 * Reads the state of an execution for a custom tool: same recovery chain and validation as the
 * server, but never writes and never takes `runtime.lock`. Safe while a server is writing: saves
 * replace state.json by an atomic rename, so this reads the previous save or the new one, whole.
 *
 * ```ts
 * const { state, source } = await readState('/path/to/exec/.hankweave');
 * ```
 */
export const readState = async (
  hankweaveDir: string,
  options: ReadStateOptions = {},
): Promise<ReadStateResult> => {
  const loaded = await loadState(hankweaveDir, options);
  return { ...loaded, source: loaded.recovery.source };
};

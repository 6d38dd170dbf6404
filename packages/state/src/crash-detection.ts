import {
  type HankweaveState,
  isTerminalCodonStatus,
  type Run,
  type StateTransitionOf,
} from '@hankweave/types';
import type { IsPidAlive } from './options.js';

/** Options of {@link findCrashedRuns}. */
export interface FindCrashedRunsOptions {
  /** Decides whether a run's `serverPid` still exists. */
  isPidAlive: IsPidAlive;
  /** Never report this run (the caller's own). */
  exceptRunId?: string;
  /**
   * The caller holds `runtime.lock`, so no other server can be running here: every `running`
   * run is crashed, whatever its pid. This is what makes detection right in containers, where a
   * restarted server often gets the very pid (1) its crashed predecessor had.
   */
  exclusive?: boolean;
}

/**
 * Runs still marked `running` whose server is gone (seed 000 "Crash Detection"): the pid is dead,
 * or the caller holds the lock (`exclusive`). Pure: nothing is changed.
 */
export const findCrashedRuns = (state: HankweaveState, options: FindCrashedRunsOptions): Run[] =>
  state.runs.filter(
    (run) =>
      run.status === 'running' &&
      run.runId !== options.exceptRunId &&
      (options.exclusive === true || !options.isPidAlive(run.serverPid)),
  );

/** The `RunCrashed` transition for a run detected at `detectedAt`. */
export const runCrashedTransition = (
  run: Run,
  detectedAt: Date,
): StateTransitionOf<'RunCrashed'> => {
  const active = run.codons.findLast((codon) => !isTerminalCodonStatus(codon.status));
  return {
    type: 'RunCrashed',
    data: {
      runId: run.runId,
      detectedAt: detectedAt.toISOString(),
      lastCodonStatus: active?.status ?? 'unknown',
    },
  };
};

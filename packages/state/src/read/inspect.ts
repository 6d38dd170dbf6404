import {
  type ActiveCodonStatus,
  type CodonExecution,
  type FailedCodon,
  type FailureReason,
  type HankweaveState,
  isTerminalCodonStatus,
  type Run,
} from '@hankweave/types';
import { latestCodonIndex } from '../reducer/lookup.js';

/** The run named by `currentRunId` (the active run), if any. */
export const currentRun = (state: HankweaveState): Run | undefined =>
  state.currentRunId === null
    ? undefined
    : state.runs.find((run) => run.runId === state.currentRunId);

/** The newest run (runs are newest first), whether or not a server is running it. */
export const latestRun = (state: HankweaveState): Run | undefined => state.runs[0];

/** A run by id. */
export const findRun = (state: HankweaveState, runId: string): Run | undefined =>
  state.runs.find((run) => run.runId === runId);

/** The latest record of a codon in a run (a retry appends a record; this is the one that counts). */
export const latestCodonRecord = (
  run: Run | undefined,
  codonId: string,
): CodonExecution | undefined =>
  run === undefined ? undefined : run.codons[latestCodonIndex(run, codonId)];

/** The codon of a run that is not yet completed, failed or skipped (the one executing), if any. */
export const runningCodon = (run: Run | undefined): CodonExecution | undefined =>
  run?.codons.findLast((codon) => !isTerminalCodonStatus(codon.status));

/** The `completionCheckpoint` of the last completed codon of a run that has one. */
export const lastSuccessfulCheckpoint = (run: Run | undefined): string | undefined =>
  run?.codons.findLast(
    (codon): codon is Extract<CodonExecution, { status: 'completed' }> =>
      codon.status === 'completed' && codon.completionCheckpoint !== undefined,
  )?.completionCheckpoint;

/** Why a codon failed, flattened for display. */
export interface CodonFailure {
  codonId: string;
  /** The status it was in when it failed: `preparing` = rig setup, `initializing` = process start, `running` = agent or API. */
  failedDuring: ActiveCodonStatus;
  reason: FailureReason;
  retriable: boolean;
  exitCode: number;
  /** `failureReason.message`, or a sentence built from the type when there is none. */
  message: string;
  endTime: string;
  record: FailedCodon;
}

/** Every failed record of a run, oldest first, with why (seed 000 "Find Why a Codon Failed"). */
export const failedCodons = (run: Run | undefined): CodonFailure[] =>
  (run?.codons ?? [])
    .filter((codon): codon is FailedCodon => codon.status === 'failed')
    .map((record) => ({
      codonId: record.codonId,
      failedDuring: record.failedDuring,
      reason: record.failureReason,
      retriable: record.failureReason.retriable,
      exitCode: record.exitCode,
      message: record.failureReason.message ?? `${record.failureReason.type} failure`,
      endTime: record.endTime,
      record,
    }));

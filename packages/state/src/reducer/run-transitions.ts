import {
  type CodonExecution,
  type FailureReason,
  type HankweaveState,
  isTerminalCodonStatus,
  type Run,
  type RunStatus,
  type StateTransitionOf,
} from '@hankweave/types';
import { stateError } from '../errors.js';
import { transitionRecord } from './codon-record.js';
import { updateRun } from './lookup.js';

/** The failure recorded on every codon that was active when its server died (reference §5.3). */
export const SERVER_CRASHED_REASON: Readonly<FailureReason> = Object.freeze({
  type: 'unknown',
  retriable: false,
  message: 'Server crashed',
});

/**
 * True for a record that crash detection ended (`RunCrashed`): an attempt its server's death cut
 * short, not one that ended on its own. Its codon runs again as the same attempt.
 */
export const endedByCrash = (record: CodonExecution): boolean =>
  record.status === 'failed' &&
  record.exitCode === -1 &&
  record.failureReason.message === SERVER_CRASHED_REASON.message;

/** `RunStarted`: a new run, unshifted (runs are newest first), becomes the current run. */
export const runStarted = (
  state: HankweaveState,
  data: StateTransitionOf<'RunStarted'>['data'],
): HankweaveState => {
  if (state.runs.some((run) => run.runId === data.runId)) {
    throw stateError('STATE_DUPLICATE_RUN', `Run '${data.runId}' already exists.`, {
      runId: data.runId,
    });
  }
  const run: Run = {
    runId: data.runId,
    runFolder: data.runFolder,
    gitBranch: data.gitBranch,
    startingConditions: data.startingConditions,
    codons: [],
    status: 'running',
    startTime: data.startTime,
    serverPid: data.serverPid,
  };
  return { ...state, runs: [run, ...state.runs], currentRunId: data.runId };
};

const endRun = (
  state: HankweaveState,
  runId: string,
  status: Exclude<RunStatus, 'running'>,
  endTime: string,
  finishCodons: (run: Run) => Run['codons'] = (run) => run.codons,
): HankweaveState => {
  const next = updateRun(state, runId, (run) => {
    if (run.status !== 'running') {
      throw stateError(
        'STATE_INVALID_TRANSITION',
        `Run '${runId}' is already '${run.status}'; it cannot become '${status}'.`,
        { runId, status: run.status, to: status },
      );
    }
    return { ...run, status, endTime, codons: finishCodons(run) };
  });
  // currentRunId names the active run, or null once its server stopped (seed 000).
  return next.currentRunId === runId ? { ...next, currentRunId: null } : next;
};

/** `RunCompleted`: the run ends successfully. */
export const runCompleted = (
  state: HankweaveState,
  data: StateTransitionOf<'RunCompleted'>['data'],
): HankweaveState => endRun(state, data.runId, 'completed', data.endTime);

/** `RunFailed`: the run ends because of a failure. */
export const runFailed = (
  state: HankweaveState,
  data: StateTransitionOf<'RunFailed'>['data'],
): HankweaveState => endRun(state, data.runId, 'failed', data.endTime);

/**
 * `RunCrashed`: the run's server died. Every active codon becomes `failed` with `failedDuring` =
 * its status, exit code -1 and {@link SERVER_CRASHED_REASON}; partial costs are kept and
 * sentinels move from `loaded` to `executed`.
 */
export const runCrashed = (
  state: HankweaveState,
  data: StateTransitionOf<'RunCrashed'>['data'],
): HankweaveState =>
  endRun(state, data.runId, 'crashed', data.detectedAt, (run) =>
    run.codons.map((record) =>
      isTerminalCodonStatus(record.status)
        ? record
        : transitionRecord(record, 'failed', data.detectedAt, {
            failedDuring: record.status,
            exitCode: -1,
            failureReason: { ...SERVER_CRASHED_REASON },
          }),
    ),
  );

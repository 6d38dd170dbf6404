import {
  type CodonExecution,
  type HankweaveState,
  isTerminalCodonStatus,
  type StateTransition,
  stateTransitionSchema,
} from '@hankweave/types';
import { stateError } from '../errors.js';
import { checkCodonTransition, transitionRecord } from './codon-record.js';
import {
  checkpointCreated,
  costsIncremented,
  costsUpdated,
  extensionCountUpdated,
  finalCostSet,
  messageCountUpdated,
  sentinelStatesUpdated,
} from './codon-updates.js';
import { latestCodonIndex, updateLatestCodon, updateRun } from './lookup.js';
import { runCompleted, runCrashed, runFailed, runStarted } from './run-transitions.js';

const onLatestRecord = (
  state: HankweaveState,
  ref: { runId: string; codonId: string },
  update: (record: CodonExecution) => CodonExecution,
): HankweaveState =>
  updateRun(state, ref.runId, (run) => updateLatestCodon(run, ref.codonId, update));

/**
 * The state after one transition: a pure function (times come from the transition itself), so a
 * journal of `state.transition` events replays to the same state. The input is never modified;
 * unchanged parts of it are shared with the result.
 *
 * Enforces the codon state machine of reference §5.5 and addresses the latest record of a codon
 * (retries append a record).
 *
 * @throws {StateError} STATE_INVALID when the transition does not match `stateTransitionSchema`.
 * @throws {StateError} STATE_INVALID_TRANSITION when the codon or run is not in a status that
 *   allows it (wrong `from`, a terminal codon, a finished run, costs on a codon that is not live).
 * @throws {StateError} STATE_MISSING_METADATA when the target status needs metadata that is absent.
 * @throws {StateError} STATE_UNKNOWN_RUN / STATE_UNKNOWN_CODON when the run or codon does not exist.
 * @throws {StateError} STATE_DUPLICATE_RUN when `RunStarted` names an existing run.
 */
export const reduceState = (state: HankweaveState, transition: StateTransition): HankweaveState => {
  const parsed = stateTransitionSchema.safeParse(transition);
  if (!parsed.success) {
    throw stateError(
      'STATE_INVALID',
      `Not a valid state transition: ${parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
      { type: (transition as { type?: unknown } | null)?.type ?? null },
      parsed.error,
    );
  }
  const t = parsed.data;
  switch (t.type) {
    case 'RunStarted':
      return runStarted(state, t.data);
    case 'RunCompleted':
      return runCompleted(state, t.data);
    case 'RunFailed':
      return runFailed(state, t.data);
    case 'RunCrashed':
      return runCrashed(state, t.data);
    case 'CodonStarted':
      return updateRun(state, t.data.runId, (run) => {
        if (run.status !== 'running') {
          throw stateError(
            'STATE_INVALID_TRANSITION',
            `Cannot start codon '${t.data.codonId}': run '${run.runId}' is '${run.status}'.`,
            { runId: run.runId, codonId: t.data.codonId, runStatus: run.status },
          );
        }
        const latest = run.codons[latestCodonIndex(run, t.data.codonId)];
        if (latest !== undefined && !isTerminalCodonStatus(latest.status)) {
          throw stateError(
            'STATE_INVALID_TRANSITION',
            `Codon '${t.data.codonId}' is still '${latest.status}' in run '${run.runId}'; ` +
              'finish it before starting it again.',
            { runId: run.runId, codonId: t.data.codonId, status: latest.status },
          );
        }
        const record: CodonExecution = {
          codonId: t.data.codonId,
          startTime: t.data.startTime,
          status: 'preparing',
          ...(t.data.loopContext === undefined ? {} : { loopContext: t.data.loopContext }),
          ...(t.data.retryAttempt === undefined ? {} : { retryAttempt: t.data.retryAttempt }),
        };
        return { ...run, codons: [...run.codons, record] };
      });
    case 'CodonTransitioned': {
      const { runId, codonId, from, to, at, metadata } = t.data;
      return onLatestRecord(state, t.data, (record) => {
        checkCodonTransition(record, from, to, metadata, { runId, codonId });
        return transitionRecord(record, to, at, metadata);
      });
    }
    case 'CostsUpdated':
      return onLatestRecord(state, t.data, (record) => costsUpdated(record, t.data));
    case 'CostsIncremented':
      return onLatestRecord(state, t.data, (record) => costsIncremented(record, t.data));
    case 'AssistantMessageCountUpdated':
      return onLatestRecord(state, t.data, (record) => messageCountUpdated(record, t.data));
    case 'ExtensionCountUpdated':
      return onLatestRecord(state, t.data, (record) => extensionCountUpdated(record, t.data));
    case 'CheckpointCreated':
      return onLatestRecord(state, t.data, (record) => checkpointCreated(record, t.data));
    case 'CodonFinalCostSet':
      return onLatestRecord(state, t.data, (record) => finalCostSet(record, t.data));
    case 'SentinelStatesUpdated':
      return onLatestRecord(state, t.data, (record) => sentinelStatesUpdated(record, t.data));
    case 'InitialCheckpointSet':
      return { ...state, initialCheckpoint: t.data.sha };
    case 'ExecutionPlanUpdated':
      return { ...state, executionPlan: t.data.executionPlan };
  }
};

/** Folds a list of transitions (a journal) over a state. Throws on the first invalid one. */
export const replayTransitions = (
  state: HankweaveState,
  transitions: Iterable<StateTransition>,
): HankweaveState => {
  let current = state;
  for (const transition of transitions) current = reduceState(current, transition);
  return current;
};

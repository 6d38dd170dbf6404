import type { CodonExecution, HankweaveState, Run } from '@hankweave/types';
import { stateError } from '../errors.js';

// Structural sharing: a transition copies only the path it changes (state → runs → run →
// codons → record), so apply() costs O(runs + codons of one run), never O(size of the state).

/** Index of the latest record with this codonId (retries append records), or -1. */
export const latestCodonIndex = (run: Run, codonId: string): number => {
  for (let index = run.codons.length - 1; index >= 0; index--) {
    if (run.codons[index]?.codonId === codonId) return index;
  }
  return -1;
};

/** Returns a new state in which the run `runId` is replaced by `update(run)`. */
export const updateRun = (
  state: HankweaveState,
  runId: string,
  update: (run: Run) => Run,
): HankweaveState => {
  const index = state.runs.findIndex((run) => run.runId === runId);
  const run = state.runs[index];
  if (run === undefined) {
    throw stateError('STATE_UNKNOWN_RUN', `No run '${runId}' in state.json.`, { runId });
  }
  const runs = state.runs.slice();
  runs[index] = update(run);
  return { ...state, runs };
};

/** Returns a new run whose latest record for `codonId` is replaced by `update(record)`. */
export const updateLatestCodon = (
  run: Run,
  codonId: string,
  update: (record: CodonExecution) => CodonExecution,
): Run => {
  const index = latestCodonIndex(run, codonId);
  const record = run.codons[index];
  if (record === undefined) {
    throw stateError(
      'STATE_UNKNOWN_CODON',
      `Run '${run.runId}' has no record of codon '${codonId}'; send CodonStarted first.`,
      { runId: run.runId, codonId },
    );
  }
  const codons = run.codons.slice();
  codons[index] = update(record);
  return { ...run, codons };
};

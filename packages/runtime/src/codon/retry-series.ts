import { endedByCrash } from '@hankweave/state';
import {
  type CodonConfig,
  type CodonExecution,
  type HankweaveState,
  isInterruption,
  isTerminalCodonStatus,
} from '@hankweave/types';

/** The place of a record in its retry series (records of a first try carry none). */
export const retryAttemptOf = (record: CodonExecution): number =>
  (record as { retryAttempt?: number }).retryAttempt ?? 1;

/**
 * True for an attempt that did not end on its own: a shutdown interrupted it, or its server
 * died (crash detection then recorded it as failed). Its codon runs again as the same attempt.
 */
export function cutShort(record: CodonExecution): boolean {
  if (!isTerminalCodonStatus(record.status)) return true;
  return (
    record.status === 'failed' && (isInterruption(record.failureReason) || endedByCrash(record))
  );
}

/** Every record of `codonId`, newest first (runs are newest first, records oldest first). */
function recordsOf(state: HankweaveState, codonId: string): CodonExecution[] {
  return state.runs.flatMap((run) =>
    run.codons.filter((record) => record.codonId === codonId).reverse(),
  );
}

/** True when a failed record's policy would retry it (a retriable failure, attempts left). */
export function retryDue(
  codon: Pick<CodonConfig, 'onFailure' | 'retryConfig'>,
  record: CodonExecution,
): boolean {
  if (record.status !== 'failed' || codon.onFailure !== 'retry') return false;
  if (!record.failureReason.retriable || cutShort(record)) return false;
  return retryAttemptOf(record) < (codon.retryConfig?.maxAttempts ?? 3);
}

/**
 * The place in its retry series of the attempt of `codonId` that starts now, from the records in
 * state (so a crash between attempts grants no extra retry): after a failure whose policy retries
 * it (an automatic retry, or a run that stopped before the retry began), the next place; after an
 * attempt that a crash cut short or a shutdown interrupted, the same place again; otherwise (a
 * first run, a success, a policy that gave up) a new series.
 */
export function nextRetryAttempt(
  state: HankweaveState,
  codonId: string,
  codon: Pick<CodonConfig, 'onFailure' | 'retryConfig'>,
): number {
  const newest = recordsOf(state, codonId)[0];
  if (!newest) return 1;
  if (cutShort(newest)) return retryAttemptOf(newest);
  return retryDue(codon, newest) ? retryAttemptOf(newest) + 1 : 1;
}

/**
 * What the earlier attempts of a series spent: for attempt n, the newest records of places
 * n-1 .. 1 before it (reference §5.5 step 10: a retried codon reports the cost of all its tries).
 */
export function earlierAttemptsCost(
  state: HankweaveState,
  codonId: string,
  retryAttempt: number,
): number {
  let cost = 0;
  let wanted = retryAttempt - 1;
  for (const record of recordsOf(state, codonId)) {
    if (wanted < 1) break;
    if (retryAttemptOf(record) !== wanted || record.status !== 'failed' || cutShort(record)) {
      continue;
    }
    cost += (record as { partialCost?: number }).partialCost ?? 0;
    wanted--;
  }
  return cost;
}

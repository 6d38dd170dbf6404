import { codonCost, executionThread, latestRun, totalCost } from '@hankweave/state';
import type { CodonStatus, HankweaveState, RunStatus } from '@hankweave/types';

/** One codon of the execution's thread in a {@link JobResult}. */
export interface JobResultCodon {
  codonId: string;
  status: CodonStatus;
  /** USD of this record (a failed attempt's cost included). */
  cost: number;
}

/** A completed job's return value (`job.returnvalue`): the run's final summary. */
export interface JobResult {
  /** The status of the execution's newest run. */
  status: RunStatus | 'none';
  /** The runtime's exit code (reference §2.6) and why it stopped. */
  exitCode: number;
  reason: string;
  executionDir: string;
  /** The codons on the execution's thread, oldest first (what the work consists of now). */
  codons: JobResultCodon[];
  /** USD spent by every run of the execution (money spent before a crash stays spent). */
  cost: number;
  /** How many runs the execution has: more than one after a resume. */
  runs: number;
  worker: string;
  durationMs: number;
}

/** Builds the {@link JobResult} of a finished runtime from its state. */
export function summarizeRun(
  state: HankweaveState,
  run: {
    executionDir: string;
    exitCode: number;
    reason: string;
    worker: string;
    durationMs: number;
  },
): JobResult {
  const thread = executionThread(state);
  return {
    status: latestRun(state)?.status ?? 'none',
    exitCode: run.exitCode,
    reason: run.reason,
    executionDir: run.executionDir,
    codons: [...thread.codons].reverse().map(({ codon }) => ({
      codonId: codon.codonId,
      status: codon.status,
      cost: codonCost(codon),
    })),
    cost: totalCost(state),
    runs: state.runs.length,
    worker: run.worker,
    durationMs: run.durationMs,
  };
}

/**
 * The runtime's own words for a failed run: the newest failed codon's failure message, else the
 * last fatal error the runtime reported, else its shutdown reason.
 */
export function failureMessageOf(
  state: HankweaveState,
  exit: { exitCode: number; reason: string },
  lastFatalError: string | undefined,
): string {
  const failed = executionThread(state).codons.find(({ codon }) => codon.status === 'failed');
  if (failed && failed.codon.status === 'failed') {
    const message = failed.codon.failureReason.message ?? failed.codon.failureReason.type;
    return `Codon ${failed.codon.codonId} failed: ${message}`;
  }
  if (lastFatalError !== undefined) return lastFatalError;
  return `The run stopped with exit code ${exit.exitCode} (${exit.reason})`;
}

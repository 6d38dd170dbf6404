import { executionThread } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import type { ResumePoint } from './resume-point.js';

/**
 * What a start says before it rolls a failed run back to its resume point. An interruption
 * (Ctrl-C, SIGTERM) is a stop, not a fault: the start says it resumes the interrupted codon,
 * which the rollback makes the next one to run.
 */
export function recoveryNotice(state: HankweaveState, point: ResumePoint | undefined): string {
  const interrupted = executionThread(state).interruptedCodonId;
  const where = point ? `to where ${point.codonId} ended` : 'to the start of the execution';
  return interrupted
    ? `Resuming the interrupted codon ${interrupted}: its partial work is rolled back ${where}, then it runs again`
    : `The previous run failed or crashed: rolling back ${where}, and going on from there`;
}

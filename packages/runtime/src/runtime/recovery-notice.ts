import { executionThread } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';

/**
 * What a start says before it rolls a failed run back to the last success. An interruption
 * (Ctrl-C, SIGTERM) is a stop, not a fault: the start says it resumes the interrupted codon,
 * which the rollback makes the next one to run.
 */
export function recoveryNotice(state: HankweaveState): string {
  const interrupted = executionThread(state).interruptedCodonId;
  return interrupted
    ? `Resuming the interrupted codon ${interrupted}: its partial work is rolled back to the last successful checkpoint, then it runs again`
    : 'The previous run failed or crashed: rolling back to the last successful checkpoint';
}

/** Why the runtime stopped. */
export type ShutdownReason =
  | 'all codons completed'
  | 'codon failure'
  /** The hank's budget is spent (`onExceeded: complete`): the remaining codons were not run. */
  | 'budget exceeded'
  /** A budget with `onExceeded: fail` is spent: the run fails, the remaining codons were not run. */
  | 'budget failure'
  | 'client request'
  | 'SIGINT'
  | 'SIGTERM'
  | 'force'
  | 'error';

/** How the runtime ended. */
export interface RuntimeExit {
  exitCode: number;
  reason: ShutdownReason;
}

/**
 * The process exit code for a shutdown (reference §2.6): all codons completed → 0 (1 if the run
 * failed); a codon failure → 1; a signal or a client's request → 0; a forced shutdown or an error → 1.
 * A spent budget → 0 when its `onExceeded` is `complete` (the run ends completed), 1 when `fail`
 * (the run ends failed).
 */
export function computeExitCode(reason: ShutdownReason, runStatus?: string): number {
  switch (reason) {
    case 'all codons completed':
    case 'budget exceeded':
      return runStatus === 'failed' || runStatus === 'crashed' ? 1 : 0;
    case 'SIGINT':
    case 'SIGTERM':
    case 'client request':
      return 0;
    default:
      return 1;
  }
}

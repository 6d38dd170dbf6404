/** Why the runtime stopped. */
export type ShutdownReason =
  | 'all codons completed'
  | 'codon failure'
  | 'client request'
  | 'SIGINT'
  | 'SIGTERM'
  | 'force'
  | 'error';

/**
 * The process exit code for a shutdown (reference §2.6): all codons completed → 0 (1 if the run
 * failed); a codon failure → 1; a signal or a client's request → 0; a forced shutdown or an error → 1.
 */
export function computeExitCode(reason: ShutdownReason, runStatus?: string): number {
  switch (reason) {
    case 'all codons completed':
      return runStatus === 'failed' || runStatus === 'crashed' ? 1 : 0;
    case 'SIGINT':
    case 'SIGTERM':
    case 'client request':
      return 0;
    default:
      return 1;
  }
}

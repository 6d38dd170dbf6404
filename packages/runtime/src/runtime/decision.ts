/** What the driver does after a codon: run the next one, wait, stop, or retry after a delay. */
export type Decision =
  | { kind: 'next' }
  | { kind: 'idle' }
  | { kind: 'shutdown' }
  | { kind: 'retry'; delayMs: number };

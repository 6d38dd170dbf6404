import type { CodonSentinelEntry, HankweaveEvent, SentinelState } from '@hankweave/types';

// `@hankweave/sentinels`' SentinelManager implements this; tests and embedders may pass their own.

/** What the runtime needs from sentinels at a codon's load and drain points. */
export interface SentinelHost {
  /**
   * Loads a codon's sentinels when it enters `starting`. Returns their initial states and the
   * references that failed to load (with whether the codon must fail because of them).
   */
  loadForCodon(input: {
    codonId: string;
    codonName: string;
    entries: readonly CodonSentinelEntry[];
  }): Promise<{
    states: SentinelState[];
    failed: { ref: string; error: string; fatal: boolean }[];
  }>;
  /** Every server-state and agentic-backbone event of the codon (never sentinel events). */
  observe(event: HankweaveEvent): void;
  /** Finishes pending work (called in `completing-sentinels` and after `codon.completed`). */
  drain(): Promise<SentinelState[]>;
  /** Unloads the codon's sentinels. */
  unload(reason: 'codon-complete' | 'shutdown'): Promise<SentinelState[]>;
  /** Sentinels currently loaded. */
  loadedCount(): number;
}

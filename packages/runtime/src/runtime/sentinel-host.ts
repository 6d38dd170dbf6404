import type { CodonSentinelEntry, HankweaveEvent, SentinelState } from '@hankweave/types';

// `@hankweave/sentinels`' SentinelManager implements this; tests and embedders may pass their own.

/** The parallel branch whose codons a branch's sentinel host watches (issue 36). */
export interface SentinelBranch {
  readonly blockId: string;
  readonly branchId: string;
  /** The branch's work tree: its codons' agentRoot, where output paths with `/` resolve. */
  readonly agentRoot: string;
}

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
  /**
   * A host of its own for the codons of one parallel branch (issue 36), which run at the same
   * time as other branches' codons: the runtime gives it only the events emitted for that
   * branch, and unloads it (`shutdown`) if anything is still loaded when the branch ends. Its
   * `sentinel.*` events should carry `branch: {blockId, branchId}`. Without it the runtime
   * refuses a hank with sentinels on a block's codons (`RUNTIME_UNSUPPORTED_FEATURE`).
   */
  forBranch?(branch: SentinelBranch): SentinelHost;
}

/** A host that runs no sentinel (a replay's, reference §8.2); its branches' hosts are itself. */
export const NO_SENTINELS: SentinelHost = {
  loadForCodon: async () => ({ states: [], failed: [] }),
  observe: () => {},
  drain: async () => [],
  unload: async () => [],
  loadedCount: () => 0,
  forBranch: () => NO_SENTINELS,
};

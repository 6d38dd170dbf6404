import type { AgentSession } from '@hankweave/harness';
import type { CodonStatus } from '@hankweave/types';

/**
 * The handle on a running codon that commands use: skip, force-stop and shutdown set a flag and
 * stop the agent; the codon's own runner then takes it to its terminal state, with a checkpoint.
 */
export class CodonControl {
  status: CodonStatus = 'preparing';
  skipRequested = false;
  forceStopReason: string | undefined;
  shutdownRequested = false;
  session: AgentSession | undefined;
  readonly abort = new AbortController();

  constructor(readonly codonId: string) {}

  /** Whether something asked this codon to stop. */
  get stopRequested(): boolean {
    return this.skipRequested || this.forceStopReason !== undefined || this.shutdownRequested;
  }

  /** Stops the agent (if any) and any rig command; resolves when the agent has exited. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.session?.kill('stop requested');
  }
}

import type { AgentSession } from '@hankweave/harness';
import type { BudgetExceeded, CodonStatus } from '@hankweave/types';

/**
 * Why a running codon was asked to stop. One reason per codon; when several requests arrive the
 * strongest wins (shutdown, then force-stop, then skip), whatever their order.
 */
export type StopReason =
  /** `codon.skip`: the codon ends `skipped`. */
  | { kind: 'skip' }
  /** `codon.forceStop`: the codon ends `failed`, retriable. */
  | { kind: 'force-stop'; reason: string }
  /**
   * A shutdown interrupted it: the codon ends `failed` as interrupted, with an `exit` checkpoint.
   * `cause` is why the runtime shut down (`SIGINT`, `SIGTERM`, `client request`, ...).
   */
  | { kind: 'shutdown'; cause?: string }
  /**
   * The budget watchdog stopped it: the codon ends as `onExceeded` says (`completed` with
   * `budgetExceeded`, or `failed`, not retriable). The weakest reason: any request wins over it.
   */
  | { kind: 'budget'; exceeded: BudgetExceeded; onExceeded: 'complete' | 'fail' };

const STRENGTH: Readonly<Record<StopReason['kind'], number>> = {
  budget: 0,
  skip: 1,
  'force-stop': 2,
  shutdown: 3,
};

/**
 * The handle on a running codon that commands use: skip, force-stop and shutdown record why and
 * stop the agent; the codon's own runner then takes it to its terminal state, with a checkpoint.
 */
export class CodonControl {
  /** The codon's status as last transitioned (the `from` of its next transition). */
  status: CodonStatus = 'preparing';
  /** The agent session of the current attempt or extension, once started. */
  session: AgentSession | undefined;
  /** Aborts rig commands and the agent's start. */
  readonly abort = new AbortController();
  #stopReason: StopReason | undefined;

  constructor(readonly codonId: string) {}

  /** Why the codon was asked to stop, if it was. */
  get stopReason(): StopReason | undefined {
    return this.#stopReason;
  }

  /**
   * Records why the codon must stop (keeping a stronger reason already recorded), then stops the
   * agent and any rig command. Resolves when the agent has exited.
   */
  async stop(reason: StopReason): Promise<void> {
    this.#record(reason);
    this.abort.abort();
    await this.session?.kill('stop requested');
  }

  /** Kills the agent without waiting (a forced shutdown). */
  abandon(): void {
    this.#record({ kind: 'shutdown' });
    this.abort.abort();
    void this.session?.kill('force shutdown');
  }

  #record(reason: StopReason): void {
    if (this.#stopReason === undefined || STRENGTH[reason.kind] > STRENGTH[this.#stopReason.kind])
      this.#stopReason = reason;
  }
}

/** Why a worker stops a job's run before it ends on its own. */
export type StopCause =
  /** `cancelJob` / `hankweave jobs cancel`: the job fails as cancelled. */
  | 'cancel'
  /** The worker shuts down (SIGTERM, SIGINT, `close()`): the job goes back to the queue. */
  | 'shutdown'
  /** The worker could not renew the job's BullMQ lock: the job may be another worker's now. */
  | 'lock-lost';

// When causes meet, the one that says most about the job's future wins: a job this worker no
// longer owns must not be requeued or failed by it, and a cancelled job must not be requeued.
const STRENGTH: Record<StopCause, number> = { shutdown: 0, cancel: 1, 'lock-lost': 2 };

/** The stop requests of one running job, from the worker's listeners to the job's run. */
export class JobControl {
  #cause: StopCause | undefined;
  #detail = '';
  #force = false;
  #listener: ((force: boolean) => void) | undefined;

  /** The strongest cause asked for so far. */
  get cause(): StopCause | undefined {
    return this.#cause;
  }

  /** What the request said (a cancellation's reason). */
  get detail(): string {
    return this.#detail;
  }

  get force(): boolean {
    return this.#force;
  }

  /**
   * Asks the run to stop. The first request stops it gracefully; `force` (a second Ctrl-C) kills
   * the agent without waiting. A weaker cause never replaces a stronger one.
   */
  stop(cause: StopCause, detail = '', options: { force?: boolean } = {}): void {
    const first = this.#cause === undefined;
    if (first || STRENGTH[cause] > STRENGTH[this.#cause as StopCause]) {
      this.#cause = cause;
      this.#detail = detail;
    }
    const forcing = options.force === true && !this.#force;
    if (forcing) this.#force = true;
    if (first || forcing) this.#listener?.(this.#force);
  }

  /** Sets what stopping does; called at once when a stop was asked for before. */
  onStop(listener: (force: boolean) => void): void {
    this.#listener = listener;
    if (this.#cause !== undefined) listener(this.#force);
  }
}

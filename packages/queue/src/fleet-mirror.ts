import type { JournalBackend } from '@hankweave/journal';
import type { HankweaveEvent, HankweaveState } from '@hankweave/types';

/**
 * Where a fleet's view of every execution lives (a Postgres table in `@hankweave/postgres`): the
 * worker upserts each execution's state into it. Implementations must ignore a write older than
 * the one they hold (a monotonic guard): two workers may both have written an execution.
 */
export interface StateMirror {
  upsert(executionId: string, state: HankweaveState, meta?: Record<string, unknown>): Promise<void>;
}

/**
 * Shared backends a worker writes to as well as the execution's own files (issue 23, part 3).
 * The files stay the source of truth the runtime recovers from; these copies are for fleet-wide
 * views (the dashboard, `hankweave sessions` across machines).
 */
export interface FleetBackends {
  /**
   * A journal backend per execution (`new PgEventStorage({pool, executionId})`): every event the
   * runtime journals is appended to it too, in order, after it is durable in the file journal.
   */
  journal?: (executionId: string) => JournalBackend;
  /** Receives the execution's state after every codon and when the run ends. */
  stateMirror?: StateMirror;
}

/** Copies one execution's events and state into the {@link FleetBackends}. */
export class FleetMirror {
  #chain: Promise<void> = Promise.resolve();
  readonly #journal: JournalBackend | undefined;

  private constructor(
    private readonly backends: FleetBackends,
    private readonly executionId: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#journal = backends.journal?.(executionId);
    if (this.#journal) {
      const journal = this.#journal;
      this.#then(() => journal.initialize());
    }
  }

  /** A mirror, or undefined when the worker has no shared backends. */
  static open(
    backends: FleetBackends,
    executionId: string,
    onError: (error: unknown) => void,
  ): FleetMirror | undefined {
    if (!backends.journal && !backends.stateMirror) return undefined;
    return new FleetMirror(backends, executionId, onError);
  }

  /** Queues one journaled event (order is kept: every write waits for the one before). */
  event(event: HankweaveEvent): void {
    const journal = this.#journal;
    if (journal) this.#then(() => journal.append([event]));
  }

  /** Queues a state upsert. */
  state(state: HankweaveState, meta?: Record<string, unknown>): void {
    const mirror = this.backends.stateMirror;
    if (mirror) this.#then(() => mirror.upsert(this.executionId, state, meta));
  }

  /** Waits for every queued write, then closes the journal backend. */
  async close(): Promise<void> {
    const journal = this.#journal;
    if (journal) this.#then(() => journal.close());
    await this.#chain;
  }

  // A failed copy is reported and skipped: the run must not stop because a mirror is down.
  #then(write: () => Promise<unknown>): void {
    this.#chain = this.#chain.then(write).then(
      () => undefined,
      (error: unknown) => this.onError(error),
    );
  }
}

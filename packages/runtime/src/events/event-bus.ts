import {
  createEventId,
  type EventData,
  type HankweaveEvent,
  isJournaledEvent,
  type JournaledEventType,
} from '@hankweave/types';

/** Where journaled events are persisted (an `EventJournal` fits). */
export interface EventSink {
  append(event: HankweaveEvent): Promise<unknown>;
}

export type EventListener = (event: HankweaveEvent) => void;

/**
 * What records the state the events report on (the state store): whether everything recorded so
 * far is on stable storage, and a way to wait until it is.
 */
export interface DurabilityBarrier {
  /** True when everything recorded so far is durable. */
  isDurable(): boolean;
  /** Resolves once everything recorded before the call is durable. */
  flush(): Promise<void>;
}

/**
 * The runtime's one ordered event bus (ARCHITECTURE.md): every event gets its id and timestamp
 * here, goes to the journal in emit order (one append chain) and to every subscriber, in the same
 * order. A slow subscriber must buffer on its own side; a throwing one is isolated and reported.
 *
 * **Acknowledge after durable.** With a `barrier` (the state store), an event is published
 * (journaled and delivered) only once every state transition applied before it was emitted is on
 * disk: `codon.completed`, `rollback.completed`, a `state.transition` and every other event can
 * never be seen, printed or journaled ahead of the state they report, whatever the call site.
 * When the state is already durable, publication is immediate; otherwise the event waits, with
 * every later one behind it, for the state's next save. If that save fails, the failure is
 * reported and the events are published anyway, so the run is never wedged.
 */
export class EventBus {
  readonly #sink: EventSink | undefined;
  readonly #barrier: DurabilityBarrier | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #clock: () => Date;
  readonly #onError: (error: unknown, what: string) => void;
  readonly #pending = new Set<Promise<void>>();
  /** Events emitted while the state was not yet durable, waiting in emit order. */
  readonly #waiting: HankweaveEvent[] = [];
  #releasing: Promise<void> | undefined;
  /** Events emitted and published so far: `settled()` waits for a watermark, not for silence. */
  #emitted = 0;
  #published = 0;
  readonly #watermarks: { count: number; resolve(): void }[] = [];

  constructor(
    options: {
      sink?: EventSink;
      barrier?: DurabilityBarrier;
      clock?: () => Date;
      onError?: (error: unknown, what: string) => void;
    } = {},
  ) {
    this.#sink = options.sink;
    this.#barrier = options.barrier;
    this.#clock = options.clock ?? (() => new Date());
    this.#onError = options.onError ?? (() => {});
  }

  /**
   * Emits a journaled event (server-state, agentic-backbone or sentinel) and returns it. It is
   * journaled and delivered now, or, when the state it reports is not durable yet, as soon as it
   * is (see the class comment).
   */
  emit<T extends JournaledEventType>(type: T, data: EventData<T>): HankweaveEvent<T> {
    const event = {
      id: createEventId(),
      type,
      timestamp: this.#clock().toISOString(),
      data,
    } as HankweaveEvent<T>;
    this.#emitted++;
    if (this.#waiting.length === 0 && (this.#barrier?.isDurable() ?? true)) this.#publish(event);
    else {
      this.#waiting.push(event);
      this.#releasing ??= this.#release();
    }
    return event;
  }

  /** Publishes the waiting events, oldest first, each once the state before it is durable. */
  async #release(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.length;
        try {
          // Covers every transition applied before the waiting events were emitted.
          await this.#barrier?.flush();
        } catch (error) {
          this.#onError(error, `the state save before publishing ${batch} event(s)`);
        }
        for (const event of this.#waiting.splice(0, batch)) this.#publish(event);
      }
    } finally {
      this.#releasing = undefined;
    }
  }

  #publish(event: HankweaveEvent): void {
    this.#published++;
    if (isJournaledEvent(event) && this.#sink) {
      // The journal keeps the order of concurrent appends itself; awaiting each append before
      // starting the next would cap throughput at one durable batch per event.
      const appended: Promise<void> = this.#sink.append(event).then(
        () => {
          this.#pending.delete(appended);
        },
        (error) => {
          this.#pending.delete(appended);
          this.#onError(error, `journal append of ${event.type}`);
        },
      );
      this.#pending.add(appended);
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error, `listener of ${event.type}`);
      }
    }
    while (this.#watermarks[0] && this.#watermarks[0].count <= this.#published) {
      this.#watermarks.shift()?.resolve();
    }
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Resolves when every event emitted before the call is published (delivered, its append
   * started); events emitted later, e.g. by an agent that keeps streaming, are not waited for.
   */
  settled(): Promise<void> {
    if (this.#published >= this.#emitted) return Promise.resolve();
    return new Promise((resolve) => this.#watermarks.push({ count: this.#emitted, resolve }));
  }

  /** Resolves when every event emitted so far is published and in the journal. */
  async drain(): Promise<void> {
    await this.settled();
    await Promise.all([...this.#pending]);
  }
}

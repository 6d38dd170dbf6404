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
 * The runtime's one ordered event bus (ARCHITECTURE.md): every event gets its id and timestamp
 * here, goes to the journal in emit order (one append chain) and to every subscriber
 * synchronously, in the same order. A slow subscriber must buffer on its own side; a throwing one
 * is isolated and reported.
 */
export class EventBus {
  readonly #sink: EventSink | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #clock: () => Date;
  readonly #onError: (error: unknown, what: string) => void;
  readonly #pending = new Set<Promise<void>>();

  constructor(
    options: {
      sink?: EventSink;
      clock?: () => Date;
      onError?: (error: unknown, what: string) => void;
    } = {},
  ) {
    this.#sink = options.sink;
    this.#clock = options.clock ?? (() => new Date());
    this.#onError = options.onError ?? (() => {});
  }

  /** Emits a journaled event (server-state, agentic-backbone or sentinel) and returns it. */
  emit<T extends JournaledEventType>(type: T, data: EventData<T>): HankweaveEvent<T> {
    const event = {
      id: createEventId(),
      type,
      timestamp: this.#clock().toISOString(),
      data,
    } as HankweaveEvent<T>;
    if (isJournaledEvent(event) && this.#sink) {
      // The journal keeps the order of concurrent appends itself; awaiting each append before
      // starting the next would cap throughput at one durable batch per event.
      const appended: Promise<void> = this.#sink.append(event).then(
        () => {
          this.#pending.delete(appended);
        },
        (error) => {
          this.#pending.delete(appended);
          this.#onError(error, `journal append of ${type}`);
        },
      );
      this.#pending.add(appended);
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error, `listener of ${type}`);
      }
    }
    return event;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when every event emitted so far is in the journal. */
  async drain(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}

import {
  createEventId,
  type EventData,
  type HankweaveEvent,
  isJournaledEvent,
  type JournaledEventType,
} from '@hankweave/types';
import { RepeatedFailures } from './repeated-failures.js';

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
 *
 * **Failures are reported once.** A full disk fails every append and every save: the first
 * failure of each kind and errno in a codon goes to `onError` naming the errno, the repeats are
 * counted and reported as one line when the codon changes and on {@link drain}.
 */
export class EventBus {
  readonly #sink: EventSink | undefined;
  readonly #barrier: DurabilityBarrier | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #clock: () => Date;
  readonly #onError: (error: unknown, what: string) => void;
  readonly #failures: RepeatedFailures;
  readonly #pending = new Set<Promise<void>>();
  /** Events emitted while the state was not yet durable, waiting in emit order. */
  readonly #waiting: HankweaveEvent[] = [];
  #releasing: Promise<void> | undefined;
  /** Events emitted and published so far: `settled()` waits for a watermark, not for silence. */
  #emitted = 0;
  #published = 0;
  readonly #watermarks: { count: number; resolve(): void }[] = [];
  /** Who emitted each event that was emitted with an origin (a parallel branch's view). */
  readonly #origins = new WeakMap<HankweaveEvent, object>();

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
    this.#failures = new RepeatedFailures((error, what) => this.#onError(error, what));
  }

  /**
   * Emits a journaled event (server-state, agentic-backbone or sentinel) and returns it. It is
   * journaled and delivered now, or, when the state it reports is not durable yet, as soon as it
   * is (see the class comment). `origin` (a {@link BranchBus}) is what {@link originOf} answers
   * for the event; it is set before any listener sees the event.
   */
  emit<T extends JournaledEventType>(
    type: T,
    data: EventData<T>,
    origin?: object,
  ): HankweaveEvent<T> {
    const event = {
      id: createEventId(),
      type,
      timestamp: this.#clock().toISOString(),
      data,
    } as HankweaveEvent<T>;
    if (origin !== undefined) this.#origins.set(event, origin);
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
          this.#failures.fail(
            error,
            'state save',
            `the state save before publishing ${batch} event(s)`,
          );
        }
        for (const event of this.#waiting.splice(0, batch)) this.#publish(event);
      }
    } finally {
      this.#releasing = undefined;
    }
  }

  #publish(event: HankweaveEvent): void {
    this.#published++;
    const codonId = (event.data as { codonId?: unknown } | undefined)?.codonId;
    if (typeof codonId === 'string') this.#failures.enter(codonId);
    if (isJournaledEvent(event) && this.#sink) {
      // An append fails later, when other codons may have started: it counts for this one.
      const scope = this.#failures.scope;
      // The journal keeps the order of concurrent appends itself; awaiting each append before
      // starting the next would cap throughput at one durable batch per event.
      const appended: Promise<void> = this.#sink.append(event).then(
        () => {
          this.#pending.delete(appended);
        },
        (error) => {
          this.#pending.delete(appended);
          this.#failures.fail(error, 'journal append', `journal append of ${event.type}`, scope);
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

  /** The `origin` `event` was emitted with, if any (the event object the bus delivered). */
  originOf(event: HankweaveEvent): object | undefined {
    return this.#origins.get(event);
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

  /**
   * Resolves when every event emitted so far is published and in the journal (or its append
   * failed), and the counts of repeated failures are reported.
   */
  async drain(): Promise<void> {
    await this.settled();
    await Promise.all([...this.#pending]);
    this.#failures.flush();
  }
}

/** What the runtime's parts use of the bus; a parallel branch's context holds a {@link BranchBus}. */
export type RuntimeBus = Pick<EventBus, 'emit' | 'originOf' | 'subscribe' | 'settled' | 'drain'>;

/**
 * The bus as a parallel branch's context sees it (issue 36): the one ordered bus, every event
 * emitted through it marked as the branch's (`bus.originOf(event) === this`). The branches'
 * codons run at once on the same bus; this is how the branch's sentinels are given its codon's
 * events only (the events a codon causes are emitted through its context).
 */
export class BranchBus implements RuntimeBus {
  constructor(private readonly bus: RuntimeBus) {}

  emit<T extends JournaledEventType>(
    type: T,
    data: EventData<T>,
    origin: object = this,
  ): HankweaveEvent<T> {
    return this.bus.emit(type, data, origin);
  }

  /** Whether `event` was emitted through this view. */
  owns(event: HankweaveEvent): boolean {
    return this.bus.originOf(event) === this;
  }

  originOf(event: HankweaveEvent): object | undefined {
    return this.bus.originOf(event);
  }

  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  settled(): Promise<void> {
    return this.bus.settled();
  }

  drain(): Promise<void> {
    return this.bus.drain();
  }
}

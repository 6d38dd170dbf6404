import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type EventJournal, type JournalBackend, openJournalReadOnly } from '@hankweave/journal';
import { type HankweaveEvent, type HankweaveState, isJournaledEvent } from '@hankweave/types';

/**
 * Where a fleet's view of every execution lives (a Postgres table in `@hankweave/postgres`): the
 * worker upserts each execution's state into it. Implementations must ignore a write older than
 * the one they hold (a monotonic guard): two workers may both have written an execution.
 */
export interface StateMirror {
  upsert(
    executionId: string,
    state: HankweaveState,
    meta?: Record<string, unknown>,
  ): Promise<unknown>;
}

/**
 * Shared backends a worker writes to as well as the execution's own files (issue 23, part 3).
 * The files stay the source of truth the runtime recovers from; these copies are for fleet-wide
 * views (the dashboard, `hankweave sessions` across machines).
 */
export interface FleetBackends {
  /**
   * A journal backend per execution (`new PgEventStorage({pool, executionId})`): every event of
   * the execution's file journal is appended to it too, in order, once it is durable in the file.
   */
  journal?: (executionId: string) => JournalBackend;
  /** Receives the execution's state after every codon and when the run ends. */
  stateMirror?: StateMirror;
}

/** Events read from the file journal per copy step. */
const COPY_BATCH = 500;
/** A copy waits this long after a wake-up: the runtime's append may still be in flight. */
const COPY_DELAY_MS = 25;
/** The longest wait between two copies that look for an announced event the file lacked. */
const MAX_RETRY_DELAY_MS = 500;

/**
 * Copies one execution's journal and state into the {@link FleetBackends}.
 *
 * The journal copy follows the execution's file journal, not the runtime's listeners: an event
 * is copied once the file holds it (acknowledge after durable), and only journaled events are.
 * The copy is always a prefix of the file (one writer at a time, in order), so a worker that
 * takes over from a dead one first skips what the copy holds and copies the rest: events the
 * dead worker journaled but never copied are back-filled. A copy that is not a prefix of the file
 * (its last event differs) is reported and left alone.
 */
export class FleetMirror {
  #chain: Promise<void> = Promise.resolve();
  readonly #journal: JournalBackend | undefined;
  readonly #journalFile: string;
  #source: EventJournal | undefined;
  #cursor: string | undefined;
  #diverged = false;
  #copyQueued = false;
  #timer: NodeJS.Timeout | undefined;
  /**
   * The newest journaled event the runtime published that no copy has found in the file yet: its
   * append lands a moment after it is published, and during a long tool call no other event
   * would wake another copy, so the copy looks again (with growing waits) until it is there.
   */
  #announced: string | undefined;
  #retryDelay = COPY_DELAY_MS;
  #closing = false;

  private constructor(
    private readonly backends: FleetBackends,
    private readonly executionId: string,
    executionDir: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#journalFile = join(executionDir, '.hankweave', 'events', 'events.jsonl');
    this.#journal = backends.journal?.(executionId);
    if (this.#journal) {
      const journal = this.#journal;
      this.#then(() => journal.initialize());
    }
  }

  /**
   * A mirror of the execution in `executionDir` (its id is the directory's name), or undefined
   * when the worker has no shared backends.
   */
  static open(
    backends: FleetBackends,
    executionDir: string,
    onError: (error: unknown) => void,
  ): FleetMirror | undefined {
    if (!backends.journal && !backends.stateMirror) return undefined;
    return new FleetMirror(backends, basename(executionDir), executionDir, onError);
  }

  /**
   * The runtime published `event`: the journal copy catches up with the file shortly, and keeps
   * looking until the file holds it when it is a journaled one.
   */
  wake(event?: HankweaveEvent): void {
    if (!this.#journal || this.#closing) return;
    if (event !== undefined && isJournaledEvent(event)) {
      this.#announced = event.id;
      this.#retryDelay = COPY_DELAY_MS;
    }
    this.#schedule(COPY_DELAY_MS);
  }

  #schedule(delay: number): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#queueCopy();
    }, delay);
  }

  /** Queues a state upsert. */
  state(state: HankweaveState, meta?: Record<string, unknown>): void {
    const mirror = this.backends.stateMirror;
    if (mirror) this.#then(() => mirror.upsert(this.executionId, state, meta));
  }

  /** Copies what the file journal holds now, waits for every queued write, closes the copy. */
  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const journal = this.#journal;
    if (journal) {
      this.#queueCopy();
      this.#then(async () => {
        await this.#source?.close();
        await journal.close();
      });
    }
    await this.#chain;
  }

  #queueCopy(): void {
    if (this.#copyQueued) return;
    this.#copyQueued = true;
    this.#then(async () => {
      this.#copyQueued = false;
      try {
        await this.#copy();
      } finally {
        this.#lookAgainIfMissed();
      }
    });
  }

  #lookAgainIfMissed(): void {
    if (this.#announced === undefined || this.#closing || this.#diverged) return;
    this.#retryDelay = Math.min(this.#retryDelay * 2, MAX_RETRY_DELAY_MS);
    this.#schedule(this.#retryDelay);
  }

  async #copy(): Promise<void> {
    const journal = this.#journal;
    if (!journal || this.#diverged) return;
    if (!this.#source) {
      if (!existsSync(this.#journalFile)) return;
      const source = await openJournalReadOnly(this.#journalFile);
      try {
        this.#cursor = await this.#skipCopied(journal, source);
      } catch (error) {
        await source.close().catch(() => undefined);
        throw error;
      }
      this.#source = source;
    }
    for (;;) {
      const page = await this.#source.getEventsAfter(this.#cursor, COPY_BATCH);
      if (page.events.length > 0) await journal.append(page.events);
      if (page.events.some((event) => event.id === this.#announced)) this.#announced = undefined;
      this.#cursor = page.nextCursor;
      if (!page.hasMore) return;
    }
  }

  /** The file cursor after the events the copy already holds (checked by the last one's id). */
  async #skipCopied(journal: JournalBackend, source: EventJournal): Promise<string | undefined> {
    const copied = await journal.readRecent(1);
    let remaining = copied.totalEvents;
    let cursor: string | undefined;
    let last: string | undefined;
    while (remaining > 0) {
      const page = await source.getEventsAfter(cursor, Math.min(remaining, COPY_BATCH));
      if (page.events.length === 0) break;
      remaining -= page.events.length;
      cursor = page.nextCursor;
      last = page.events.at(-1)?.id;
    }
    const lastCopied = copied.events.at(-1)?.id;
    if (remaining > 0 || last !== lastCopied) {
      this.#diverged = true;
      throw new Error(
        `the fleet journal of ${this.executionId} holds ${copied.totalEvents} events that are not the first ones of ${this.#journalFile} (its last is ${lastCopied}, the file's at that place ${last ?? 'missing'}); it is no longer copied`,
      );
    }
    return cursor;
  }

  // A failed copy is reported and skipped: the run must not stop because a mirror is down.
  #then(write: () => Promise<unknown>): void {
    this.#chain = this.#chain.then(write).then(
      () => undefined,
      (error: unknown) => this.onError(error),
    );
  }
}

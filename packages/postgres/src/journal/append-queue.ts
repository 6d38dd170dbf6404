/** One `append` call waiting to be written. */
interface Pending {
  lines: string[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Orders appends and commits them in groups. `enqueue` is synchronous, so calls keep their call
 * order even when callers do not await each other; one group is written at a time, and whatever
 * queued up meanwhile goes into the next group (group commit: one round trip and one WAL flush
 * for many events). A group holds whole calls, so a call's events are committed all or none.
 */
export class AppendQueue {
  readonly #write: (lines: string[]) => Promise<void>;
  readonly #groupEvents: number;
  #queue: Pending[] = [];
  #running: Promise<void> | undefined;

  /**
   * @param write commits the lines of one group, in order, atomically.
   * @param groupEvents calls are joined into one group until it would exceed this many events
   *   (a single larger call is still one group).
   */
  constructor(write: (lines: string[]) => Promise<void>, groupEvents: number) {
    this.#write = write;
    this.#groupEvents = groupEvents;
  }

  /** Queues the lines of one call; resolves once they are committed. */
  enqueue(lines: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ lines, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /** Resolves once every call queued so far has been committed or has failed. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const group = this.#takeGroup();
        try {
          await this.#write(group.flatMap((pending) => pending.lines));
          for (const pending of group) pending.resolve();
        } catch (error) {
          for (const pending of group) pending.reject(error);
        }
      }
    } finally {
      this.#running = undefined;
    }
  }

  #takeGroup(): Pending[] {
    const group: Pending[] = [this.#queue.shift() as Pending];
    let events = group[0]?.lines.length ?? 0;
    while (this.#queue.length > 0) {
      const next = this.#queue[0] as Pending;
      if (events + next.lines.length > this.#groupEvents) break;
      group.push(this.#queue.shift() as Pending);
      events += next.lines.length;
    }
    return group;
  }
}

/**
 * An append-only buffer that any number of `for await` loops can read from the start. The agent
 * runs whether or not someone listens, so nothing may be lost to a late reader.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private closed = false;
  private waiters: Array<() => void> = [];

  /** Appends an item; ignored after {@link close}. */
  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  /** Ends every iteration once it has read the buffered items. Idempotent. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Everything pushed so far. */
  snapshot(): readonly T[] {
    return [...this.items];
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0;
    while (true) {
      if (index < this.items.length) {
        yield this.items[index++] as T;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

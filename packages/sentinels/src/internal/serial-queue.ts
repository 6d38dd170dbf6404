/**
 * A bounded FIFO worked one item at a time. Pushing never waits: the worker starts on a later
 * microtask, so the caller of `push` (ultimately `observe()`) returns before any work is done.
 */
export class SerialQueue<T> {
  private readonly items: T[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly worker: (item: T) => Promise<void>,
    private readonly limits: {
      maxItems: number;
      maxWeight: number;
      weight: (item: T) => number;
      onDrop: (item: T, reason: string) => void;
    },
  ) {}

  /** Items waiting (not counting the one being worked). */
  get size(): number {
    return this.items.length;
  }

  /** Queues an item, dropping the oldest ones when a limit is reached. */
  push(item: T): void {
    if (this.stopped) return;
    this.items.push(item);
    while (this.items.length > this.limits.maxItems) {
      this.limits.onDrop(this.items.shift() as T, `more than ${this.limits.maxItems} triggers`);
    }
    let weight = this.items.reduce((sum, queued) => sum + this.limits.weight(queued), 0);
    while (weight > this.limits.maxWeight && this.items.length > 1) {
      const dropped = this.items.shift() as T;
      weight -= this.limits.weight(dropped);
      this.limits.onDrop(dropped, `more than ${this.limits.maxWeight} queued events`);
    }
    this.running ??= Promise.resolve().then(() => this.run());
  }

  /** Resolves once every queued item has been worked. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Forgets queued items and refuses new ones (the item in progress finishes). */
  stop(): void {
    this.stopped = true;
    this.items.length = 0;
  }

  private async run(): Promise<void> {
    try {
      for (let item = this.items.shift(); item !== undefined; item = this.items.shift()) {
        try {
          await this.worker(item);
        } catch {
          // The worker reports its own failures; one bad item must not stall the queue.
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}

import { readFileSync } from 'node:fs';

/** What the queue tells a watcher: so many events came at once that some may be lost. */
interface QueueListener {
  overflowed(events: number): void;
}

/**
 * libuv reads inotify's queue until it is empty in one poll of the event loop, and drops the
 * kernel's overflow notice without a word. The queue holds `max_queued_events`; past that the
 * kernel drops events. So a poll that hands over that many events (half of it: other `fs.watch`
 * users of this process share the queue, uncounted) may have lost some, and every open watcher
 * of the process is told. A false alarm costs one walk.
 */
class WatchQueue {
  readonly #open = new Set<QueueListener>();
  #delivered = 0;
  #resetting = false;
  #alarmAt = 0;

  open(listener: QueueListener): void {
    this.#open.add(listener);
  }

  close(listener: QueueListener): void {
    this.#open.delete(listener);
  }

  /** Counts one event handed over by libuv (to any watcher, open or not). */
  delivered(): void {
    if (this.#alarmAt === 0) this.#alarmAt = Math.max(1, Math.floor(maxQueuedEvents() / 2));
    this.#delivered++;
    if (!this.#resetting) {
      // The check phase follows the poll that is handing over these events.
      this.#resetting = true;
      setImmediate(() => {
        this.#delivered = 0;
        this.#resetting = false;
      });
    }
    if (this.#delivered === this.#alarmAt) {
      for (const listener of this.#open) listener.overflowed(this.#alarmAt);
    }
  }
}

function maxQueuedEvents(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    return Number.isInteger(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

/** The process's one inotify queue (libuv's, shared by every `fs.watch`). */
export const watchQueue = new WatchQueue();

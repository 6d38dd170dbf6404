import type { HankweaveEvent, SentinelExecution } from '@hankweave/types';

/** Turns matched events into batches (one batch = one trigger = one LLM call). */
export interface Batcher {
  /** Adds matched events; may fire a batch now or arm a timer. */
  add(events: readonly HankweaveEvent[]): void;
  /** Fires whatever is pending (a partial count batch too) and disarms timers. */
  flush(): void;
  /** Disarms timers and forgets pending events. */
  stop(): void;
}

/** Builds the batcher for an execution strategy; `fire` receives each batch. */
export function createBatcher(
  execution: SentinelExecution,
  fire: (events: HankweaveEvent[]) => void,
  now: () => number,
): Batcher {
  switch (execution.strategy) {
    case 'immediate':
      return { add: (events) => fire([...events]), flush: () => {}, stop: () => {} };
    case 'count':
      return new CountBatcher(execution.threshold, fire);
    case 'debounce':
      return new TimedBatcher(fire, () => execution.milliseconds, true);
    case 'timeWindow': {
      // Absolute boundaries from creation: windows do not drift with processing time.
      const origin = now();
      const period = execution.milliseconds;
      const untilBoundary = () => period - ((now() - origin) % period);
      return new TimedBatcher(fire, untilBoundary, false);
    }
  }
}

class CountBatcher implements Batcher {
  private pending: HankweaveEvent[] = [];
  constructor(
    private readonly threshold: number,
    private readonly fire: (events: HankweaveEvent[]) => void,
  ) {}
  add(events: readonly HankweaveEvent[]): void {
    this.pending.push(...events);
    while (this.pending.length >= this.threshold) {
      this.fire(this.pending.splice(0, this.threshold));
    }
  }
  flush(): void {
    if (this.pending.length > 0) this.fire(this.pending.splice(0));
  }
  stop(): void {
    this.pending = [];
  }
}

/** Debounce (timer restarts on every match) and time windows (timer armed once per window). */
class TimedBatcher implements Batcher {
  private pending: HankweaveEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    private readonly fire: (events: HankweaveEvent[]) => void,
    private readonly delay: () => number,
    private readonly restartOnAdd: boolean,
  ) {}
  add(events: readonly HankweaveEvent[]): void {
    this.pending.push(...events);
    if (this.timer !== undefined && !this.restartOnAdd) return;
    this.disarm();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delay());
    // A pending batch must not keep the process alive; drain() flushes it explicitly.
    this.timer.unref?.();
  }
  flush(): void {
    this.disarm();
    if (this.pending.length > 0) this.fire(this.pending.splice(0));
  }
  stop(): void {
    this.disarm();
    this.pending = [];
  }
  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

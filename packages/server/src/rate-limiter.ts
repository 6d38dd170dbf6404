/**
 * A token bucket: `burst` messages at once, refilled at `perSecond`. One per client, so a noisy
 * client slows only itself.
 */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly now: () => number = () => performance.now(),
  ) {
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token; false when the bucket is empty (the message must be refused). */
  take(): boolean {
    const now = this.now();
    this.#tokens = Math.min(
      this.burst,
      this.#tokens + ((now - this.#last) / 1000) * this.perSecond,
    );
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** Default idle time before the agent is stopped (reference §4.2). */
export const DEFAULT_IDLE_TIMEOUT_MS = 180_000;
/** The longest idle time allowed (reference §4.2: 1800 s). */
export const MAX_IDLE_TIMEOUT_MS = 1_800_000;

/**
 * How long the current silence of the agent may last, in milliseconds. The watchdog asks each time
 * it restarts its countdown (on every output line), so the answer may depend on what the agent is
 * doing: Pi prints nothing while a tool runs, so its allowance is at least 300 s then.
 */
export type IdleAllowance = () => number;

/**
 * Calls `onIdle` once when `touch()` has not been called for as long as the allowance says. An
 * adapter touches it on every stdout line of its agent and stops it when the agent exits; in
 * `onIdle` it calls `AgentLogPipeline.noteIdleTimeout` and stops the agent (reference §4.2).
 * `ProcessSession` does all of that.
 */
export class IdleWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly allowance: IdleAllowance;

  /**
   * @param allowance a fixed idle time in ms, or an {@link IdleAllowance} asked at each restart.
   * @param onIdle called once, when the silence has lasted the allowance.
   */
  constructor(
    allowance: number | IdleAllowance,
    private readonly onIdle: () => void,
  ) {
    this.allowance = typeof allowance === 'number' ? () => allowance : allowance;
    this.touch();
  }

  /** The silence allowed now. */
  get timeoutMs(): number {
    return this.allowance();
  }

  /** Restarts the countdown, with the allowance as it is now. */
  touch(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onIdle();
    }, this.allowance());
  }

  /** Stops for good. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** Pi's default idle time (reference §4.3: `DEFAULT_PI_IDLE_TIMEOUT`, 120 s). */
export const PI_DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** The idle floor while a tool runs (reference §4.3: `PI_BUSY_TIMEOUT_MS`, 300 s). */
export const PI_BUSY_TIMEOUT_MS = 300_000;

/**
 * The idle watchdog of a Pi session. Pi prints nothing while a tool runs (a long build, a test
 * suite), so while any tool is running the allowed silence is at least `busyFloorMs`; otherwise
 * `idleMs`. Calls `onIdle` once; `touch()` on every line of the agent restarts the countdown.
 */
export class BusyIdleWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = new Set<string>();

  constructor(
    private readonly idleMs: number,
    private readonly busyFloorMs: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
  }

  /** The silence allowed now. */
  get timeoutMs(): number {
    return this.running.size > 0 ? Math.max(this.idleMs, this.busyFloorMs) : this.idleMs;
  }

  /** Restarts the countdown. */
  touch(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onIdle();
    }, this.timeoutMs);
  }

  /** A tool call started (`tool_execution_start`). */
  toolStarted(id: string): void {
    this.running.add(id);
    this.touch();
  }

  /** A tool call ended (`tool_execution_end`). */
  toolEnded(id: string): void {
    this.running.delete(id);
    this.touch();
  }

  /** Stops for good. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

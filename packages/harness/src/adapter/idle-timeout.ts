/** Default idle time before the agent is stopped (reference §4.2). */
export const DEFAULT_IDLE_TIMEOUT_MS = 180_000;
/** The longest idle time allowed (reference §4.2: 1800 s). */
export const MAX_IDLE_TIMEOUT_MS = 1_800_000;

/** Start of the watchdog's message; it contains "timeout", so it classifies as a timeout. */
export const IDLE_TIMEOUT_MESSAGE_PREFIX = 'Agent idle timeout:';

/** The watchdog's message for `idleTimeoutMs`. */
export function idleTimeoutMessage(idleTimeoutMs: number): string {
  return `${IDLE_TIMEOUT_MESSAGE_PREFIX} no output for ${idleTimeoutMs / 1000} s; the harness stopped the agent.`;
}

/**
 * The result line the watchdog writes (reference §4.2), in the shape Claude Code's own error
 * results have, so that the parser and the classifier treat it like any other error result.
 */
export function idleTimeoutResultLine(input: {
  message: string;
  sessionId: string | undefined;
  timestamp: string;
}): string {
  return JSON.stringify({
    type: 'result',
    subtype: 'error',
    is_error: true,
    result: input.message,
    num_turns: 0,
    duration_ms: 0,
    duration_api_ms: 0,
    session_id: input.sessionId ?? '',
    timestamp: input.timestamp,
  });
}

/**
 * Calls `onIdle` once when `touch()` has not been called for `timeoutMs`. An adapter touches it
 * on every stdout line of its agent and stops it when the agent exits; in `onIdle` it calls
 * `AgentLogPipeline.noteIdleTimeout` and stops the agent (reference §4.2).
 */
export class IdleWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
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

  /** Stops for good. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

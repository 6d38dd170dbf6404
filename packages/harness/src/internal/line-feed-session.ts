import { sleep } from '@hankweave/durable-io';
import type { ModelCatalog } from '@hankweave/types';
import { AgentLogPipeline } from '../adapter/agent-log-pipeline.js';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleWatchdog } from '../adapter/idle-watchdog.js';
import { killOnAbort } from '../adapter/kill-on-abort.js';
import type { AgentEvent } from '../agent-event.js';
import type { AgentOutcome, AgentSession, AgentStartOptions } from '../agent-harness.js';

/** What a session without a process feeds through the log and the parser. */
export interface LineFeedInput {
  options: AgentStartOptions;
  /** Stream-json lines, as an agent would print them (or as a log recorded them). */
  lines: readonly string[];
  /** Milliseconds to wait before line `index`. */
  delayBeforeLine: (index: number) => number;
  /** Exit code to report; default 0 after a success result, else 1. */
  exitCode?: number;
  /** After the last line, stay "running" until killed (or idle-timed-out when `watchIdle`). */
  hang?: boolean;
  /** Apply the idle watchdog as the real harness does. */
  watchIdle?: boolean;
  /** Prices the usage. Default `defaultModelCatalog`. */
  models?: ModelCatalog;
}

/** Harnesses without a process report a pid like the original runtime's SDK manager: 900000 + n. */
export function syntheticPid(): number {
  return 900_000 + Math.floor(Math.random() * 99_999);
}

/**
 * A session whose "agent" is a list of lines: the replay and fake harnesses. The lines go through
 * the same log writer and parser as the real agent's stdout, so events and outcome are the same.
 */
export class LineFeedSession implements AgentSession {
  readonly pid = syntheticPid();
  readonly logPath: string;
  readonly outcome: Promise<AgentOutcome>;
  private readonly stopped = new AbortController();
  private killed = false;
  private timedOut = false;

  private constructor(
    private readonly pipeline: AgentLogPipeline,
    input: LineFeedInput,
  ) {
    this.logPath = input.options.logPath;
    this.outcome = this.run(input);
  }

  /**
   * Opens the log and starts feeding.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when the log cannot be opened.
   */
  static async start(input: LineFeedInput): Promise<LineFeedSession> {
    const pipeline = await AgentLogPipeline.open(
      input.options,
      input.models === undefined ? {} : { models: input.models },
    );
    const session = new LineFeedSession(pipeline, input);
    killOnAbort(session, input.options.signal);
    return session;
  }

  get events(): AsyncIterable<AgentEvent> {
    return this.pipeline.events;
  }

  async kill(reason?: string): Promise<void> {
    if (!this.stopped.signal.aborted) {
      this.killed = true;
      this.pipeline.noteKill(reason);
      this.stopped.abort();
    }
    await this.outcome;
  }

  private async run(input: LineFeedInput): Promise<AgentOutcome> {
    const idleMs = input.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const watchdog = input.watchIdle
      ? new IdleWatchdog(idleMs, () => this.onIdle(idleMs))
      : undefined;
    const signal = this.stopped.signal;
    try {
      for (const [index, line] of input.lines.entries()) {
        // No await without a delay: a fake's lines are all fed in the tick start() began them.
        const delay = input.delayBeforeLine(index);
        if (delay > 0) await sleep(delay, signal);
        // Cut short by kill() or the watchdog: stop feeding.
        if (signal.aborted) break;
        watchdog?.touch();
        this.pipeline.stdout(line);
      }
      if (input.hang && !signal.aborted) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      }
    } finally {
      watchdog?.stop();
    }
    if (this.killed || this.timedOut) {
      return this.pipeline.finish({
        exitCode: null,
        signal: 'SIGTERM',
        killed: this.killed,
        timedOut: this.timedOut,
      });
    }
    await this.pipeline.drain();
    const { successResult, killNoted } = this.pipeline.state;
    // A recording of a killed attempt replays as killed.
    if (killNoted)
      return this.pipeline.finish({
        exitCode: null,
        signal: 'SIGTERM',
        killed: true,
        timedOut: false,
      });
    return this.pipeline.finish({
      exitCode: input.exitCode ?? (successResult ? 0 : 1),
      killed: false,
      timedOut: false,
    });
  }

  private onIdle(idleTimeoutMs: number): void {
    this.timedOut = true;
    this.pipeline.noteIdleTimeout(idleTimeoutMs);
    this.stopped.abort();
  }
}

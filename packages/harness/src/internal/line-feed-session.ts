import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentEvent } from '../agent-event.js';
import type { AgentOutcome, AgentSession, AgentStartOptions } from '../agent-harness.js';
import { killNoteLogLine } from '../agent-log-writer.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  IdleWatchdog,
  idleTimeoutMessage,
  idleTimeoutResultLine,
} from './idle-timeout.js';
import { SessionCore } from './session-core.js';

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
    private readonly core: SessionCore,
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
    const core = await SessionCore.open(input.options);
    const session = new LineFeedSession(core, input);
    const { signal } = input.options;
    if (signal) {
      const onAbort = () => void session.kill('aborted');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      void session.outcome.then(() => signal.removeEventListener('abort', onAbort));
    }
    return session;
  }

  get events(): AsyncIterable<AgentEvent> {
    return this.core.events;
  }

  async kill(reason?: string): Promise<void> {
    if (!this.stopped.signal.aborted) {
      this.killed = true;
      this.core.append(killNoteLogLine(reason, new Date().toISOString()));
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
        const delay = input.delayBeforeLine(index);
        if (delay > 0) await sleep(delay, undefined, { signal });
        if (signal.aborted) break;
        watchdog?.touch();
        this.core.stdout(line);
      }
      if (input.hang && !signal.aborted) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      }
    } catch {
      // Aborted while sleeping: fall through to the exit.
    } finally {
      watchdog?.stop();
    }
    if (this.killed || this.timedOut) {
      return this.core.finish({
        exitCode: null,
        signal: 'SIGTERM',
        killed: this.killed,
        timedOut: this.timedOut,
      });
    }
    await this.core.drain();
    const { successResult, killNoted } = this.core.parser.state;
    // A recording of a killed attempt replays as killed.
    if (killNoted)
      return this.core.finish({ exitCode: null, signal: 'SIGTERM', killed: true, timedOut: false });
    return this.core.finish({
      exitCode: input.exitCode ?? (successResult ? 0 : 1),
      killed: false,
      timedOut: false,
    });
  }

  private onIdle(idleTimeoutMs: number): void {
    this.timedOut = true;
    this.core.append(
      idleTimeoutResultLine({
        message: idleTimeoutMessage(idleTimeoutMs),
        sessionId: this.core.parser.state.sessionId,
        timestamp: new Date().toISOString(),
      }),
    );
    this.stopped.abort();
  }
}

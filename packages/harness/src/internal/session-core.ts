import type { AgentEvent } from '../agent-event.js';
import type { AgentOutcome, AgentStartOptions } from '../agent-harness.js';
import { AgentLogWriter, stampStdoutLine, stderrLogLine } from '../agent-log-writer.js';
import { deriveFailureReason } from '../classify/derive-failure-reason.js';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import { EventChannel } from './event-channel.js';
import { IDLE_TIMEOUT_MESSAGE_PREFIX } from './idle-timeout.js';

/** How the agent ended, as the process (or the replay) saw it. */
export interface SessionExit {
  exitCode: number | null;
  signal?: NodeJS.Signals;
  killed: boolean;
  timedOut: boolean;
}

/**
 * What every harness shares: stdout lines are stamped, appended to the log, and only then parsed,
 * so the events are exactly what the log says (the log is the source of truth). Lines are handled
 * strictly in arrival order through one promise chain.
 */
export class SessionCore {
  readonly events = new EventChannel<AgentEvent>();
  readonly parser: AgentLogParser;
  private chain: Promise<void> = Promise.resolve();
  private crashMessage: string | undefined;
  private outcome: Promise<AgentOutcome> | undefined;

  private constructor(
    private readonly writer: AgentLogWriter,
    options: AgentStartOptions,
    private readonly hooks: { onEvent?: (event: AgentEvent) => void; onCrash?: () => void },
  ) {
    const parserOptions: ConstructorParameters<typeof AgentLogParser>[0] = {
      codonId: options.codonId,
      model: options.model,
    };
    if (options.autoCompact !== undefined) parserOptions.autoCompact = options.autoCompact;
    if (options.resumeSessionId !== undefined) parserOptions.resumed = true;
    this.parser = new AgentLogParser(parserOptions);
  }

  /**
   * Opens the log and returns a core writing to it.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when the log cannot be opened.
   */
  static async open(
    options: AgentStartOptions,
    hooks: { onEvent?: (event: AgentEvent) => void; onCrash?: () => void } = {},
  ): Promise<SessionCore> {
    return new SessionCore(await AgentLogWriter.open(options.logPath), options, hooks);
  }

  /** An agent stdout line: stamped with the time it arrived. */
  stdout(line: string): void {
    if (line.trim() === '') return;
    this.append(stampStdoutLine(line, new Date().toISOString()));
  }

  /** An agent stderr line. */
  stderr(line: string): void {
    if (line.trim() === '') return;
    this.append(stderrLogLine(line, new Date().toISOString()));
  }

  /** A line already in log form (a recorded line, or a synthetic result). */
  append(logLine: string): void {
    this.chain = this.chain.then(async () => {
      try {
        await this.writer.write(logLine);
      } catch (error) {
        // Keep parsing what the agent says; the failure becomes the crash message of the outcome.
        if (this.crashMessage === undefined) {
          this.crashMessage = error instanceof Error ? error.message : String(error);
          this.hooks.onCrash?.();
        }
      }
      for (const event of this.parser.push(logLine)) this.emit(event);
    });
  }

  /** Resolves when every line handed over so far is written and parsed. */
  async drain(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  /** Records a harness failure (its message becomes evidence for the failure reason). */
  crash(message: string): void {
    this.crashMessage ??= message;
  }

  private emit(event: AgentEvent): void {
    this.events.push(event);
    this.hooks.onEvent?.(event);
  }

  /**
   * Drains the pending lines, emits the final events, closes the log and the event stream, and
   * returns the outcome. Call once the agent has exited; later calls return the same outcome.
   */
  finish(exit: SessionExit): Promise<AgentOutcome> {
    this.outcome ??= this.computeOutcome(exit);
    return this.outcome;
  }

  private async computeOutcome(exit: SessionExit): Promise<AgentOutcome> {
    await this.drain();
    for (const event of this.parser.finish()) this.emit(event);
    await this.writer.close();
    const state = this.parser.state;
    const final = this.parser.finalCost();
    const failureReason = deriveFailureReason({
      ...(state.errorResultText !== undefined && { errorResultText: state.errorResultText }),
      ...(this.crashMessage !== undefined && { crashMessage: this.crashMessage }),
      syntheticTimeout: state.syntheticTimeout,
      sessionEstablished: state.sessionId !== undefined,
      successResult: state.successResult,
      exitCode: exit.exitCode,
      killed: exit.killed || state.killNoted,
      contextExceeded: state.contextExceeded,
    });
    const outcome: AgentOutcome = {
      exitCode: exit.exitCode,
      resultReceived: state.resultReceived,
      finalCost: final.finalCost,
      finalTokens: final.finalTokens,
      contextExceeded: state.contextExceeded,
      killed: exit.killed || state.killNoted,
      // A replayed log carries the watchdog's synthetic result; the outcome says so too.
      timedOut:
        exit.timedOut ||
        state.syntheticTimeout ||
        (state.errorResultText?.startsWith(IDLE_TIMEOUT_MESSAGE_PREFIX) ?? false),
      assistantMessageCount: state.assistantMessageCount,
    };
    if (exit.signal !== undefined) outcome.signal = exit.signal;
    if (state.sessionId !== undefined) outcome.sessionId = state.sessionId;
    if (final.modelUsage) outcome.modelUsage = final.modelUsage;
    if (failureReason) outcome.failureReason = failureReason;
    if (state.errorResultText !== undefined) outcome.errorResultText = state.errorResultText;
    this.events.close();
    return outcome;
  }
}

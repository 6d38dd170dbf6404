import type { ModelCatalog } from '@hankweave/types';
import type { AgentEvent } from '../agent-event.js';
import type { AgentOutcome, AgentStartOptions } from '../agent-harness.js';
import { AgentLogWriter, stampStdoutLine, stderrLogLine } from '../agent-log-writer.js';
import { EventChannel } from '../internal/event-channel.js';
import { idleTimeoutResultLine, killNoteLine } from '../log-lines/harness-log-lines.js';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import type { AgentLogParserOptions, AgentLogState } from '../parser/agent-log-state.js';
import { type AgentExit, agentOutcome } from './classify-exit.js';

/** Options of {@link AgentLogPipeline.open}. */
export interface AgentLogPipelineOptions {
  /** Prices the usage. Default `defaultModelCatalog` of `@hankweave/types`. */
  models?: ModelCatalog;
  /** Called for every event as it is parsed (after it is in the log). */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Called once when a line cannot be written. The log is the record of the attempt, so an
   * adapter usually stops its agent here; the write error becomes the outcome's failure reason.
   */
  onCrash?: () => void;
}

/**
 * The log-first core every agent session shares. The adapter hands over what its agent prints;
 * each line is stamped, appended to `logPath`, and only then parsed, so the events are exactly
 * what the log says and re-parsing the log gives the same events. Lines are handled strictly in
 * arrival order through one promise chain. `finish()` turns the end of the agent into the
 * {@link AgentOutcome}.
 */
export class AgentLogPipeline {
  private readonly channel = new EventChannel<AgentEvent>();
  private readonly parser: AgentLogParser;
  private chain: Promise<void> = Promise.resolve();
  private crashMessage: string | undefined;
  private outcome: Promise<AgentOutcome> | undefined;

  private constructor(
    private readonly writer: AgentLogWriter,
    options: AgentStartOptions,
    private readonly hooks: AgentLogPipelineOptions,
  ) {
    const parserOptions: AgentLogParserOptions = { codonId: options.codonId, model: options.model };
    if (options.autoCompact !== undefined) parserOptions.autoCompact = options.autoCompact;
    if (options.resumeSessionId !== undefined) parserOptions.resumed = true;
    if (hooks.models !== undefined) parserOptions.models = hooks.models;
    this.parser = new AgentLogParser(parserOptions);
  }

  /**
   * Opens the log of `options.logPath` for appending (creating its directory) and returns a
   * pipeline writing to it.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when the log cannot be opened.
   */
  static async open(
    options: AgentStartOptions,
    pipelineOptions: AgentLogPipelineOptions = {},
  ): Promise<AgentLogPipeline> {
    return new AgentLogPipeline(
      await AgentLogWriter.open(options.logPath),
      options,
      pipelineOptions,
    );
  }

  /**
   * Every event in log order, buffered from the start (any number of readers each see all of
   * them); ends once {@link finish} has emitted the final events. The session's `events`.
   */
  get events(): AsyncIterable<AgentEvent> {
    return this.channel;
  }

  /** What the parser knows after the lines so far (the session id, results, tokens, …). */
  get state(): Readonly<AgentLogState> {
    return this.parser.state;
  }

  /** An agent stdout line (a Claude-format stream-json line): stamped with the time it arrived. */
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

  /**
   * Notes in the log that the agent is being stopped on purpose, so that the log (and a replay of
   * it) ends `killed`. Call it once, before stopping the agent.
   */
  noteKill(reason: string | undefined): void {
    this.append(JSON.stringify(killNoteLine(reason, new Date().toISOString())));
  }

  /**
   * Appends the idle watchdog's synthetic error result (an error result like the agent's own, so
   * it classifies as a retriable timeout). Call it once, when the watchdog fires, then stop the
   * agent and report `timedOut: true`.
   */
  noteIdleTimeout(idleTimeoutMs: number): void {
    const line = idleTimeoutResultLine({
      idleTimeoutMs,
      sessionId: this.parser.state.sessionId,
      timestamp: new Date().toISOString(),
    });
    this.append(JSON.stringify(line));
  }

  /** Resolves when every line handed over so far is written and parsed (then `state` has it). */
  async drain(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  private emit(event: AgentEvent): void {
    this.channel.push(event);
    this.hooks.onEvent?.(event);
  }

  /**
   * Drains the pending lines, emits the final events, closes the log and the event stream, and
   * returns the outcome. Call once the agent has exited; later calls return the same outcome.
   */
  finish(exit: AgentExit): Promise<AgentOutcome> {
    this.outcome ??= this.computeOutcome(exit);
    return this.outcome;
  }

  private async computeOutcome(exit: AgentExit): Promise<AgentOutcome> {
    await this.drain();
    for (const event of this.parser.finish()) this.emit(event);
    await this.writer.close();
    const outcome = agentOutcome({
      exit,
      state: this.parser.state,
      final: this.parser.finalCost(),
      ...(this.crashMessage !== undefined && { crashMessage: this.crashMessage }),
    });
    this.channel.close();
    return outcome;
  }
}

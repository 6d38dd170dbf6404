import type { ModelCatalog } from '@hankweave/types';
import { validateStartOptions } from '../adapter/validate-start-options.js';
import type { AgentHarness, AgentSession, AgentStartOptions } from '../agent-harness.js';
import { LineFeedSession } from '../internal/line-feed-session.js';
import { buildAgentLog, type FakeAgentScenario } from './build-agent-log.js';

/** What the fake agent does for one start. */
export interface FakeAgentScript {
  /** Raw stream-json lines to print; takes precedence over `scenario`. */
  lines?: readonly string[];
  /** A conversation built with {@link buildAgentLog}; default: one text turn and a success. */
  scenario?: FakeAgentScenario;
  /** Exit code; default 0 after a success result, else 1. */
  exitCode?: number;
  /** After the last line, keep running until killed or idle-timed-out. */
  hang?: boolean;
  /** Thrown by `start()` instead of running (e.g. a `HarnessError`). */
  startError?: Error;
}

/** Options of {@link FakeHarness}. */
export interface FakeHarnessOptions {
  /** The script of each start; a function gets the options and the 0-based start number. */
  script?: FakeAgentScript | ((options: AgentStartOptions, startIndex: number) => FakeAgentScript);
  /** Wait before each line, in ms. Default 0. */
  lineDelayMs?: number;
  /**
   * Prices the usage (the scenario's default `total_cost_usd` and the parser's figures). Default
   * `defaultModelCatalog` of `@hankweave/types`.
   */
  models?: ModelCatalog;
}

/**
 * A harness for the runtime's tests: no process, no network. It prints Claude-format lines through
 * the real log writer and parser (so events, log and outcome are real), honours `idleTimeoutMs`,
 * `kill()` and `signal`, and records every start.
 */
export class FakeHarness implements AgentHarness {
  readonly name = 'fake';
  /** The options of every `start()` call, in order. */
  readonly starts: AgentStartOptions[] = [];
  /** Every session started, in order. */
  readonly sessions: AgentSession[] = [];

  constructor(private readonly options: FakeHarnessOptions = {}) {}

  async start(options: AgentStartOptions): Promise<AgentSession> {
    validateStartOptions(options);
    const index = this.starts.length;
    this.starts.push(options);
    const { script = {} } = this.options;
    const resolved = typeof script === 'function' ? script(options, index) : script;
    if (resolved.startError) throw resolved.startError;
    const { models } = this.options;
    const lines =
      resolved.lines ??
      buildAgentLog(
        { model: options.model, ...resolved.scenario },
        models === undefined ? {} : { models },
      );
    const delay = this.options.lineDelayMs ?? 0;
    const session = await LineFeedSession.start({
      options,
      lines,
      delayBeforeLine: () => delay,
      watchIdle: true,
      ...(models !== undefined && { models }),
      ...(resolved.exitCode !== undefined && { exitCode: resolved.exitCode }),
      ...(resolved.hang !== undefined && { hang: resolved.hang }),
    });
    this.sessions.push(session);
    return session;
  }
}

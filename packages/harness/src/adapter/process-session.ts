import type { ModelCatalog } from '@hankweave/types';
import type { AgentEvent } from '../agent-event.js';
import type { AgentOutcome, AgentSession, AgentStartOptions } from '../agent-harness.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import { AgentLogPipeline } from './agent-log-pipeline.js';
import { AgentProcess } from './agent-process.js';
import { classifyExit } from './classify-exit.js';
import { DEFAULT_IDLE_TIMEOUT_MS, type IdleAllowance, IdleWatchdog } from './idle-watchdog.js';
import { killOnAbort } from './kill-on-abort.js';

/** Time between SIGTERM and SIGKILL when a session is stopped (reference §4.4: 5 s). */
export const DEFAULT_KILL_GRACE_MS = 5000;

/** Where an adapter's translation writes: the session's agent log. */
export interface AgentLogSink {
  /** A Claude-format stream-json line: stamped, appended to the log, then parsed. */
  stdout(line: string): void;
  /** A line to keep in the log as agent output that is not parsed (`{"type":"stderr"}`). */
  stderr(line: string): void;
}

/**
 * Turns one agent's stdout into the Claude-format agent log. Claude Code needs none (its lines go
 * to the log as they are); Pi's JSON lines are translated (`@hankweave/pi`'s `PiLogTranslator`).
 */
export interface AgentOutputTranslator {
  /** One stdout line of the agent, in arrival order. */
  push(line: string): void;
  /**
   * The agent has exited: write what only the end can tell (Pi's result line). Called once,
   * before the outcome is computed, also after a kill.
   */
  finish?(): void;
}

/**
 * What an adapter hands {@link ProcessSession.start}: its agent's command line, environment and
 * output translation. Everything else (the sandbox, the log, the watchdog, the stop, the outcome)
 * is the kit's.
 */
export interface ProcessSessionSpec {
  /** The start options `start()` was called with (checked: `validateStartOptions`). */
  options: AgentStartOptions;
  /** The executable (Claude Code's binary; `process.execPath` for Pi's `cli.js`). */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** Its whole environment (nothing is inherited): see `buildAgentEnv`. */
  env: Record<string, string>;
  /** What a spawn error calls the agent. Default: `command`. */
  label?: string;
  /**
   * Run the agent in this sandbox: `options.sandbox` extended with what the agent itself needs
   * (`extendSandboxPolicy`). Absent: no sandbox.
   */
  sandbox?: SandboxPolicy;
  /** Time between SIGTERM and SIGKILL. Default {@link DEFAULT_KILL_GRACE_MS}. */
  killGraceMs?: number;
  /** Prices the usage. Default `defaultModelCatalog` of `@hankweave/types`. */
  models?: ModelCatalog;
  /** The idle time when `options.idleTimeoutMs` is absent. Default `DEFAULT_IDLE_TIMEOUT_MS`. */
  defaultIdleTimeoutMs?: number;
  /**
   * The watchdog's allowance for an idle time (the option, or the default). Default: the idle
   * time itself, whatever the agent does.
   */
  idleAllowance?: (idleTimeoutMs: number) => IdleAllowance;
  /** Makes the translator of the agent's stdout. Default: the lines go to the log as they are. */
  translate?: (log: AgentLogSink) => AgentOutputTranslator;
  /**
   * Called once the agent has exited, before the outcome resolves (Pi removes its per-start
   * config). Not called when `start()` throws: the adapter cleans up after a failed start.
   * Errors are ignored.
   */
  cleanup?: () => Promise<void>;
}

/**
 * One running agent process and its log: the session every process-based adapter returns. It
 * spawns the agent (sandboxed when asked), feeds its stdout through the adapter's translation into
 * the agent log, watches for silence, stops it with grace, and classifies its end.
 *
 * How each stop is recorded (the parser and the replays read it back):
 * - `kill()` / the abort signal: the kill note, once, before SIGTERM, and only while the agent
 *   runs; the outcome says `killed`.
 * - the idle watchdog: its synthetic error result, before SIGTERM; the outcome says `timedOut`.
 * - the agent's own API timeout (`api.timeout`): no line of ours, the agent's is the record;
 *   `timedOut`.
 * - a log that cannot be written: no line (there is no log); neither flag, the write error is the
 *   failure reason.
 */
export class ProcessSession implements AgentSession {
  readonly logPath: string;
  readonly outcome: Promise<AgentOutcome>;
  private killed = false;
  private timedOut = false;
  /** The agent has exited: a kill now changes nothing. */
  private ended = false;

  private constructor(
    private readonly pipeline: AgentLogPipeline,
    private readonly agent: AgentProcess,
    private readonly watchdog: IdleWatchdog,
    private readonly killGraceMs: number,
    output: AgentOutputTranslator,
    spec: ProcessSessionSpec,
  ) {
    this.logPath = spec.options.logPath;
    this.outcome = agent.exited.then(async (exit) => {
      this.ended = true;
      watchdog.stop();
      output.finish?.();
      await pipeline.drain();
      await spec.cleanup?.().catch(() => undefined);
      const stops = { killed: this.killed, timedOut: this.timedOut };
      return pipeline.finish(classifyExit(exit, stops, pipeline.state));
    });
  }

  /**
   * Opens the log, spawns the agent and starts watching it. Resolves once the agent runs.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when the log cannot be opened;
   *   HARNESS_SPAWN_FAILED when the agent cannot start; HARNESS_INVALID_OPTIONS for a sandbox
   *   policy with a relative path.
   */
  static async start(spec: ProcessSessionSpec): Promise<ProcessSession> {
    const { options } = spec;
    let session: ProcessSession | undefined;
    const pipeline = await AgentLogPipeline.open(options, {
      ...(spec.models !== undefined && { models: spec.models }),
      onEvent: (event) => session?.onEvent(event),
      // The log is the source of truth: an agent we cannot log must not go on. Not a kill: the
      // write error is the failure reason of the outcome.
      onCrash: () => void session?.stop(),
    });
    const sink: AgentLogSink = {
      stdout: (line) => pipeline.stdout(line),
      stderr: (line) => pipeline.stderr(line),
    };
    const output = spec.translate?.(sink) ?? { push: sink.stdout };
    let watchdog: IdleWatchdog | undefined;
    let agent: AgentProcess;
    try {
      agent = await AgentProcess.spawn({
        command: spec.command,
        ...(spec.label !== undefined && { label: spec.label }),
        args: spec.args,
        cwd: options.cwd,
        env: spec.env,
        ...(spec.sandbox && { sandbox: spec.sandbox }),
        stdin: options.prompt,
        stdout: (line) => {
          // Translate first: the allowance may depend on what the line says (a tool started).
          output.push(line);
          watchdog?.touch();
        },
        stderr: (line) => pipeline.stderr(line),
      });
    } catch (error) {
      await pipeline.finish({ exitCode: null, killed: false, timedOut: false });
      throw error;
    }
    const idleTimeoutMs =
      options.idleTimeoutMs ?? spec.defaultIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    watchdog = new IdleWatchdog(spec.idleAllowance?.(idleTimeoutMs) ?? idleTimeoutMs, () =>
      session?.onIdle(idleTimeoutMs),
    );
    session = new ProcessSession(
      pipeline,
      agent,
      watchdog,
      spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      output,
      spec,
    );
    killOnAbort(session, options.signal);
    return session;
  }

  /** The agent's pid (bubblewrap's in a sandbox). */
  get pid(): number {
    return this.agent.pid;
  }

  /** Every event in log order, buffered from the start. */
  get events(): AsyncIterable<AgentEvent> {
    return this.pipeline.events;
  }

  /**
   * Notes the kill in the log (the first time, while the agent runs), then stops the agent: SIGTERM,
   * SIGKILL to its group after the grace period. Resolves once the outcome is in.
   */
  async kill(reason?: string): Promise<void> {
    if (!this.killed && !this.ended) {
      this.killed = true;
      this.pipeline.noteKill(reason);
    }
    await this.stop();
  }

  /** Stops the agent without a note (the note, if any, is written by the caller). */
  private async stop(): Promise<void> {
    this.watchdog.stop();
    await this.agent.terminate(this.killGraceMs);
    await this.outcome;
  }

  private onEvent(event: AgentEvent): void {
    // The agent would hang on after its own API timeout; reference §4.5 stops it.
    if (event.type === 'api.timeout' && !this.ended) {
      this.timedOut = true;
      void this.stop();
    }
  }

  private onIdle(idleTimeoutMs: number): void {
    this.timedOut = true;
    this.pipeline.noteIdleTimeout(idleTimeoutMs);
    void this.stop();
  }
}

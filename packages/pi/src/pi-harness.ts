import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import {
  type AgentEvent,
  type AgentHarness,
  AgentLogPipeline,
  type AgentOutcome,
  AgentProcess,
  type AgentSession,
  type AgentStartOptions,
  extendSandboxPolicy,
  HarnessError,
  killOnAbort,
  type SandboxPolicy,
  validateStartOptions,
} from '@hankweave/harness';
import { defaultModelCatalog, type ModelCatalog } from '@hankweave/types';
import {
  BusyIdleWatchdog,
  PI_BUSY_TIMEOUT_MS,
  PI_DEFAULT_IDLE_TIMEOUT_MS,
} from './busy-idle-watchdog.js';
import { writePiAgentDir } from './pi-agent-dir.js';
import { buildPiArgs } from './pi-args.js';
import { buildPiEnvironment } from './pi-environment.js';
import { PiLogTranslator } from './pi-log-translator.js';
import { resolvePiModel } from './pi-model.js';
import { resolvePiCli } from './resolve-pi-cli.js';

/** Options of {@link createPiHarness}, shared by every session it starts. */
export interface PiHarnessOptions {
  /** Pi's `dist/cli.js`; default `HANKWEAVE_PI_PATH`, else the installed package. */
  piPath?: string;
  /**
   * A server for every model (the scripted model, a proxy, Ollama, vLLM), written into Pi's
   * models.json: a provider Pi ships with keeps its own API family there (`openai` the Responses
   * API, `google` generateContent, `anthropic` the Messages API, `openrouter` Chat Completions),
   * any other provider is declared with Chat Completions. One URL ending in `/v1` suits every
   * family (the Anthropic one drops the `/v1`, its SDK adds it). Default `<PROVIDER>_BASE_URL`
   * from the environment.
   */
  baseUrl?: string;
  /**
   * Forces Pi's API family for that server (`openai-completions`, `openai-responses`,
   * `anthropic-messages`, `google-generative-ai`), e.g. `openai-completions` for a vLLM server
   * behind `OPENAI_BASE_URL`, which has no Responses API. Default: the provider's own family.
   */
  api?: string;
  /** The provider, for model ids that name none (a local model such as `qwen3:8b`). */
  provider?: string;
  /** Where passthrough, `HANKWEAVE_*` and provider variables come from. Default `process.env`. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Pi's private directory: each start's config (models.json, settings.json) and the sessions
   * that `continue-previous` resumes. Default `pi/` beside the agent log.
   */
  agentDir?: string;
  /** Pi's own retries of failed API requests. Default true (Pi's settings: 3 tries). */
  retries?: boolean;
  /** Time between SIGTERM and SIGKILL. Default 5000. */
  killGraceMs?: number;
  /** The idle floor while a tool runs. Default 300000 (reference §4.3). */
  busyTimeoutMs?: number;
  /** Appended to Pi's command line (for flags this package does not know). */
  extraArgs?: readonly string[];
  /** Prices the usage (events, outcome, the result's `total_cost_usd`). */
  models?: ModelCatalog;
}

const DEFAULT_KILL_GRACE_MS = 5000;

/**
 * The Pi adapter of the agent spec: runs the Pi coding agent (`@mariozechner/pi-coding-agent`)
 * as a child process in JSON mode, one process per attempt, and writes its lines, translated into
 * the Claude-style log, through the shared agent-log pipeline.
 */
export function createPiHarness(options: PiHarnessOptions = {}): AgentHarness {
  return new PiHarness(options);
}

/** See {@link createPiHarness}. */
export class PiHarness implements AgentHarness {
  readonly name = 'pi';
  readonly appliesSandbox = true;
  private cli: string | undefined;

  constructor(private readonly options: PiHarnessOptions = {}) {}

  /**
   * Pi's `cli.js` (found once).
   * @throws {HarnessError} HARNESS_BINARY_NOT_FOUND
   */
  resolveCli(): string {
    this.cli ??= resolvePiCli({
      env: this.options.baseEnv ?? process.env,
      ...(this.options.piPath !== undefined && { explicitPath: this.options.piPath }),
    });
    return this.cli;
  }

  async start(options: AgentStartOptions): Promise<AgentSession> {
    validateStartOptions(options);
    const cwdInfo = await stat(options.cwd).catch(() => undefined);
    if (!cwdInfo?.isDirectory()) {
      throw new HarnessError('HARNESS_INVALID_OPTIONS', `cwd is not a directory: ${options.cwd}`, {
        details: { cwd: options.cwd },
      });
    }
    const catalog = this.options.models ?? defaultModelCatalog;
    const model = resolvePiModel(options.model, {
      catalog,
      ...(this.options.provider !== undefined && { provider: this.options.provider }),
    });
    const environment = buildPiEnvironment({
      model,
      baseEnv: this.options.baseEnv ?? process.env,
      ...(options.env !== undefined && { codonEnv: options.env }),
      ...(this.options.baseUrl !== undefined && { baseUrl: this.options.baseUrl }),
    });
    const cli = this.resolveCli();
    const agentRoot = this.options.agentDir ?? join(dirname(options.logPath), 'pi');
    const dir = await writePiAgentDir({
      root: agentRoot,
      model,
      retries: this.options.retries ?? true,
      ...(environment.baseUrl !== undefined && { baseUrl: environment.baseUrl }),
      ...(this.options.api !== undefined && { api: this.options.api }),
      ...(environment.keyVariable !== undefined && { keyVariable: environment.keyVariable }),
      ...(options.autoCompact !== undefined && { autoCompact: options.autoCompact }),
      ...(options.appendSystemPrompt !== undefined && {
        appendSystemPrompt: options.appendSystemPrompt,
      }),
    });
    const env = { ...environment.env, PI_CODING_AGENT_DIR: dir.configDir, PI_OFFLINE: '1' };
    const args = buildPiArgs(
      {
        model,
        sessionDir: dir.sessionDir,
        ...(options.resumeSessionId !== undefined && { resumeSessionId: options.resumeSessionId }),
        ...(dir.appendSystemPromptFile !== undefined && {
          appendSystemPromptFile: dir.appendSystemPromptFile,
        }),
      },
      this.options.extraArgs,
    );
    try {
      return await PiSession.start({
        options,
        cli,
        args,
        env,
        catalog,
        killGraceMs: this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        busyTimeoutMs: this.options.busyTimeoutMs ?? PI_BUSY_TIMEOUT_MS,
        cleanup: dir.remove,
        ...(options.sandbox && { sandbox: piSandbox(options.sandbox, agentRoot, cli, env) }),
      });
    } catch (error) {
      await dir.remove().catch(() => undefined);
      throw error;
    }
  }
}

/**
 * The codon's sandbox plus what Pi itself needs: its agent directory writable (each start's
 * config and the sessions `continue-previous` resumes), and its installation, the node binary and
 * `HOME` in view.
 */
export function piSandbox(
  policy: SandboxPolicy,
  agentDir: string,
  cli: string,
  env: Readonly<Record<string, string>>,
): SandboxPolicy {
  const home = env.HOME !== undefined && isAbsolute(env.HOME) ? [env.HOME] : [];
  return extendSandboxPolicy(policy, {
    writable: [agentDir],
    // dist/cli.js → the package directory, with its node_modules beside it.
    readable: [dirname(dirname(cli)), dirname(process.execPath), ...home],
  });
}

/** One running Pi process and its log. */
class PiSession implements AgentSession {
  readonly logPath: string;
  readonly outcome: Promise<AgentOutcome>;
  private killed = false;
  private timedOut = false;

  private constructor(
    private readonly pipeline: AgentLogPipeline,
    private readonly process: AgentProcess,
    private readonly watchdog: BusyIdleWatchdog,
    private readonly killGraceMs: number,
    translator: PiLogTranslator,
    cleanup: () => Promise<void>,
    options: AgentStartOptions,
  ) {
    this.logPath = options.logPath;
    this.outcome = process.exited.then(async (exit) => {
      this.watchdog.stop();
      translator.finish();
      await pipeline.drain();
      await cleanup().catch(() => undefined);
      return pipeline.finish({
        ...exit,
        exitCode: reportedExitCode(exit.exitCode, exit.signal, pipeline),
        killed: this.killed,
        timedOut: this.timedOut,
      });
    });
  }

  static async start(input: {
    options: AgentStartOptions;
    cli: string;
    args: string[];
    env: Record<string, string>;
    catalog: ModelCatalog;
    killGraceMs: number;
    busyTimeoutMs: number;
    cleanup: () => Promise<void>;
    sandbox?: SandboxPolicy;
  }): Promise<PiSession> {
    const { options } = input;
    let session: PiSession | undefined;
    const pipeline = await AgentLogPipeline.open(options, {
      models: input.catalog,
      // The log is the source of truth: an agent we cannot log must not go on. Not a kill: the
      // write error is the failure reason of the outcome.
      onCrash: () => void session?.stop(),
    });
    const idleTimeoutMs = options.idleTimeoutMs ?? PI_DEFAULT_IDLE_TIMEOUT_MS;
    const watchdog = new BusyIdleWatchdog(idleTimeoutMs, input.busyTimeoutMs, () =>
      session?.onIdle(idleTimeoutMs),
    );
    const translator = new PiLogTranslator({
      model: options.model,
      cwd: options.cwd,
      catalog: input.catalog,
      write: (line) => pipeline.stdout(line),
      unreadable: (line) => pipeline.stderr(line),
      toolStarted: (id) => watchdog.toolStarted(id),
      toolEnded: (id) => watchdog.toolEnded(id),
    });
    let agent: AgentProcess;
    try {
      agent = await AgentProcess.spawn({
        command: process.execPath,
        label: `Pi (${input.cli})`,
        args: [input.cli, ...input.args],
        cwd: options.cwd,
        env: input.env,
        ...(input.sandbox && { sandbox: input.sandbox }),
        stdin: options.prompt,
        stdout: (line) => {
          watchdog.touch();
          translator.push(line);
        },
        stderr: (line) => pipeline.stderr(line),
      });
    } catch (error) {
      watchdog.stop();
      await pipeline.finish({ exitCode: null, killed: false, timedOut: false });
      throw error;
    }
    session = new PiSession(
      pipeline,
      agent,
      watchdog,
      input.killGraceMs,
      translator,
      input.cleanup,
      options,
    );
    killOnAbort(session, options.signal);
    return session;
  }

  get pid(): number {
    return this.process.pid;
  }

  get events(): AsyncIterable<AgentEvent> {
    return this.pipeline.events;
  }

  async kill(reason?: string): Promise<void> {
    if (!this.killed) {
      this.killed = true;
      this.pipeline.noteKill(reason);
    }
    await this.stop();
  }

  /** Stops the agent without noting a kill (a crash of the log, the idle watchdog). */
  async stop(): Promise<void> {
    this.watchdog.stop();
    await this.process.terminate(this.killGraceMs);
    await this.outcome;
  }

  private onIdle(idleTimeoutMs: number): void {
    this.timedOut = true;
    this.pipeline.noteIdleTimeout(idleTimeoutMs);
    void this.stop();
  }
}

/**
 * Pi exits 0 even when its last request failed; the log then ends in an error result. Report
 * exit code 1 for it, as Claude Code does, so the outcome (and a replay of the log, which derives
 * the code from the result) says the attempt failed.
 */
function reportedExitCode(
  exitCode: number | null,
  signal: NodeJS.Signals | undefined,
  pipeline: AgentLogPipeline,
): number | null {
  const state = pipeline.state;
  const failed = state.errorResultText !== undefined && !state.successResult;
  return exitCode === 0 && signal === undefined && failed ? 1 : exitCode;
}

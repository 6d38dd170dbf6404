import { dirname, isAbsolute, join } from 'node:path';
import {
  type AgentHarness,
  type AgentSession,
  type AgentStartOptions,
  BusyFloorAllowance,
  checkWorkingDirectory,
  extendSandboxPolicy,
  ProcessSession,
  type SandboxPolicy,
  validateStartOptions,
} from '@hankweave/harness';
import { defaultModelCatalog, type ModelCatalog } from '@hankweave/types';
import { writePiAgentDir } from './pi-agent-dir.js';
import { buildPiArgs } from './pi-args.js';
import { buildPiEnvironment } from './pi-environment.js';
import { PI_BUSY_TIMEOUT_MS, PI_DEFAULT_IDLE_TIMEOUT_MS } from './pi-idle-times.js';
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

/**
 * The Pi adapter of the agent spec: runs the Pi coding agent (`@mariozechner/pi-coding-agent`)
 * as a child process in JSON mode, one process per attempt, its lines translated into the
 * Claude-style log. The process, the log, the idle watchdog and the stop are the harness's
 * `ProcessSession`; this adapter is Pi's command line, environment, config and translation.
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
    await checkWorkingDirectory(options.cwd);
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
    // Pi prints nothing while a tool runs: its translation tells the watchdog's allowance.
    const busy = new BusyFloorAllowance(this.options.busyTimeoutMs ?? PI_BUSY_TIMEOUT_MS);
    try {
      return await ProcessSession.start({
        options,
        command: process.execPath,
        label: `Pi (${cli})`,
        args: [cli, ...args],
        env,
        ...(options.sandbox && { sandbox: piSandbox(options.sandbox, agentRoot, cli, env) }),
        ...(this.options.killGraceMs !== undefined && { killGraceMs: this.options.killGraceMs }),
        models: catalog,
        defaultIdleTimeoutMs: PI_DEFAULT_IDLE_TIMEOUT_MS,
        idleAllowance: (idleTimeoutMs) => busy.for(idleTimeoutMs),
        translate: (log) =>
          new PiLogTranslator({
            model: options.model,
            cwd: options.cwd,
            catalog,
            write: log.stdout,
            unreadable: log.stderr,
            toolStarted: (id) => busy.toolStarted(id),
            toolEnded: (id) => busy.toolEnded(id),
          }),
        cleanup: dir.remove,
      });
    } catch (error) {
      // The session cleans up once the agent has exited; a start that failed is ours to clean.
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

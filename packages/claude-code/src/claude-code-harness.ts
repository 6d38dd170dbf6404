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
  buildAgentEnv,
  DEFAULT_IDLE_TIMEOUT_MS,
  extendSandboxPolicy,
  HarnessError,
  IdleWatchdog,
  killOnAbort,
  type SandboxPolicy,
  validateStartOptions,
} from '@hankweave/harness';
import type { ModelCatalog } from '@hankweave/types';
import { buildClaudeArgs } from './claude-args.js';
import { type ResolvedClaudeBinary, resolveClaudeBinary } from './resolve-claude-binary.js';
import { applyRootSandbox, runningAsRoot } from './root-sandbox.js';

/** Options of {@link ClaudeCodeHarness}, shared by every session it starts. */
export interface ClaudeCodeHarnessOptions {
  /** The `claude` executable; default: resolved (see `resolveClaudeBinary`). */
  claudePath?: string;
  /** Overrides `ANTHROPIC_BASE_URL` for the agent (the LLM proxy, a scripted model). */
  anthropicBaseUrl?: string;
  /** Where passthrough and `HANKWEAVE_*` variables come from. Default `process.env`. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * As root, allow setting `IS_SANDBOX=1` so that Claude Code accepts bypassed permissions.
   * Default: true when `IS_SANDBOX` is already set in `baseEnv` or the codon env.
   */
  allowRootSandbox?: boolean;
  /** Time between SIGTERM and SIGKILL. Default 5000. */
  killGraceMs?: number;
  /** Appended to the command line (for flags this package does not know). */
  extraArgs?: readonly string[];
  /** Prices the usage (events and outcome). Default `defaultModelCatalog` of `@hankweave/types`. */
  models?: ModelCatalog;
  /** Overrides root detection (tests). */
  isRoot?: boolean;
}

const DEFAULT_KILL_GRACE_MS = 5000;

/**
 * Runs the Claude Code CLI as a child process in stream-json mode, one process per attempt. Every
 * stdout line is stamped and appended to the agent log, then parsed into events.
 */
export class ClaudeCodeHarness implements AgentHarness {
  readonly name = 'claude-code';
  readonly appliesSandbox = true;
  private binary: Promise<ResolvedClaudeBinary> | undefined;

  constructor(private readonly options: ClaudeCodeHarnessOptions = {}) {}

  /**
   * The binary sessions run (resolved once, on first use).
   * @throws {HarnessError} HARNESS_BINARY_NOT_FOUND
   */
  resolveBinary(): Promise<ResolvedClaudeBinary> {
    if (!this.binary) {
      const env = this.options.baseEnv ?? process.env;
      const resolving = resolveClaudeBinary(
        this.options.claudePath === undefined
          ? { env }
          : { env, explicitPath: this.options.claudePath },
      );
      // A failed lookup is not cached: the user may install the agent and try again.
      resolving.catch(() => {
        this.binary = undefined;
      });
      this.binary = resolving;
    }
    return this.binary;
  }

  async start(options: AgentStartOptions): Promise<AgentSession> {
    validateStartOptions(options);
    const cwdInfo = await stat(options.cwd).catch(() => undefined);
    if (!cwdInfo?.isDirectory()) {
      throw new HarnessError('HARNESS_INVALID_OPTIONS', `cwd is not a directory: ${options.cwd}`, {
        details: { cwd: options.cwd },
      });
    }
    const baseEnv = this.options.baseEnv ?? process.env;
    const env = buildAgentEnv({
      baseEnv,
      ...(this.options.anthropicBaseUrl !== undefined && {
        anthropicBaseUrl: this.options.anthropicBaseUrl,
      }),
      ...(options.env !== undefined && { codonEnv: options.env }),
    });
    applyRootSandbox(env, {
      isRoot: this.options.isRoot ?? runningAsRoot(),
      allowRootSandbox: this.options.allowRootSandbox,
      baseEnv,
    });
    const binary = await this.resolveBinary();
    return ClaudeCodeSession.start({
      options,
      command: binary.path,
      args: buildClaudeArgs(options, this.options.extraArgs),
      env,
      ...(options.sandbox && { sandbox: claudeSandbox(options.sandbox, env, binary.path) }),
      killGraceMs: this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      ...(this.options.models !== undefined && { models: this.options.models }),
    });
  }
}

/**
 * The codon's sandbox plus what Claude Code itself needs: its config directory writable (sessions,
 * which `--resume` reads back, settings, shell snapshots: `CLAUDE_CONFIG_DIR`, else `~/.claude`),
 * and its installation and `HOME` in view; its settings, memory, subagents and commands stay
 * read-only where they exist. `~/.claude.json` stays read-only: Claude Code works without
 * updating it.
 */
export function claudeSandbox(
  policy: SandboxPolicy,
  env: Readonly<Record<string, string>>,
  binaryPath: string,
): SandboxPolicy {
  const home = env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : undefined;
  const configured = env.CLAUDE_CONFIG_DIR;
  const configDir =
    configured !== undefined && isAbsolute(configured)
      ? configured
      : home !== undefined
        ? join(home, '.claude')
        : undefined;
  return extendSandboxPolicy(policy, {
    writable: configDir === undefined ? [] : [configDir],
    // What in the config directory would run or steer later Claude Code sessions (hooks and
    // permissions in settings, memory, subagents, commands) stays read-only where it exists.
    readOnly:
      configDir === undefined ? [] : CONFIG_DIR_PROTECTED.map((name) => join(configDir, name)),
    readable: [dirname(binaryPath), ...(home === undefined ? [] : [home])],
  });
}

/** Entries of Claude Code's config directory the agent may not rewrite (when they exist). */
const CONFIG_DIR_PROTECTED = [
  'settings.json',
  'settings.local.json',
  'CLAUDE.md',
  'agents',
  'commands',
  'hooks',
  'output-styles',
];

/** One running Claude Code process and its log. */
class ClaudeCodeSession implements AgentSession {
  readonly logPath: string;
  readonly outcome: Promise<AgentOutcome>;
  private killed = false;
  private timedOut = false;

  private constructor(
    private readonly pipeline: AgentLogPipeline,
    private readonly process: AgentProcess,
    private readonly watchdog: IdleWatchdog | undefined,
    private readonly killGraceMs: number,
    options: AgentStartOptions,
  ) {
    this.logPath = options.logPath;
    this.outcome = process.exited.then((exit) => {
      this.watchdog?.stop();
      return pipeline.finish({ ...exit, killed: this.killed, timedOut: this.timedOut });
    });
  }

  static async start(input: {
    options: AgentStartOptions;
    command: string;
    args: string[];
    env: Record<string, string>;
    killGraceMs: number;
    models?: ModelCatalog;
    sandbox?: SandboxPolicy;
  }): Promise<ClaudeCodeSession> {
    const { options } = input;
    let session: ClaudeCodeSession | undefined;
    const pipeline = await AgentLogPipeline.open(options, {
      ...(input.models !== undefined && { models: input.models }),
      onEvent: (event: AgentEvent) => session?.onEvent(event),
      // The log is the source of truth: an agent we cannot log must not go on.
      onCrash: () => void session?.stop(),
    });
    let watchdog: IdleWatchdog | undefined;
    let agent: AgentProcess;
    try {
      agent = await AgentProcess.spawn({
        command: input.command,
        args: input.args,
        cwd: options.cwd,
        env: input.env,
        ...(input.sandbox && { sandbox: input.sandbox }),
        stdin: options.prompt,
        stdout: (line) => {
          watchdog?.touch();
          pipeline.stdout(line);
        },
        stderr: (line) => pipeline.stderr(line),
      });
    } catch (error) {
      await pipeline.finish({ exitCode: null, killed: false, timedOut: false });
      throw error;
    }
    const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    watchdog = new IdleWatchdog(idleTimeoutMs, () => session?.onIdle(idleTimeoutMs));
    session = new ClaudeCodeSession(pipeline, agent, watchdog, input.killGraceMs, options);
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
    if (!this.killed) this.pipeline.noteKill(reason);
    await this.stop('killed');
  }

  private async stop(flag?: 'killed' | 'timedOut'): Promise<void> {
    if (flag !== undefined) this[flag] = true;
    this.watchdog?.stop();
    await this.process.terminate(this.killGraceMs);
    await this.outcome;
  }

  private onEvent(event: AgentEvent): void {
    // The agent would hang on after its own API timeout; reference §4.5 stops it.
    if (event.type === 'api.timeout') void this.stop('timedOut');
  }

  private onIdle(idleTimeoutMs: number): void {
    this.timedOut = true;
    this.pipeline.noteIdleTimeout(idleTimeoutMs);
    void this.stop('timedOut');
  }
}

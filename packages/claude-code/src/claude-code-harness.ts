import { dirname, isAbsolute, join } from 'node:path';
import {
  type AgentHarness,
  type AgentSession,
  type AgentStartOptions,
  buildAgentEnv,
  checkWorkingDirectory,
  extendSandboxPolicy,
  ProcessSession,
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

/**
 * Runs the Claude Code CLI as a child process in stream-json mode, one process per attempt. Every
 * stdout line is stamped and appended to the agent log as it is, then parsed into events. The
 * process, the log, the idle watchdog and the stop are the harness's `ProcessSession`; this class
 * is Claude Code's command line, environment and sandbox.
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
    await checkWorkingDirectory(options.cwd);
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
    // Claude Code writes Claude-format lines itself: no translation, the harness's idle time.
    return ProcessSession.start({
      options,
      command: binary.path,
      args: buildClaudeArgs(options, this.options.extraArgs),
      env,
      ...(options.sandbox && { sandbox: claudeSandbox(options.sandbox, env, binary.path) }),
      ...(this.options.killGraceMs !== undefined && { killGraceMs: this.options.killGraceMs }),
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

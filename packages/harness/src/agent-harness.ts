import type { FailureReason, TokenUsage } from '@hankweave/types';
import type { AgentEvent } from './agent-event.js';
import type { SandboxPolicy } from './sandbox/sandbox-policy.js';

/** What to run: one attempt (or extension) of one codon. */
export interface AgentStartOptions {
  /** Runtime codon id (`review#1`); put into every event payload. */
  codonId: string;
  /** The run the attempt belongs to. */
  runId: string;
  /** The model the agent runs (Claude Code: `--model`); also the pricing fallback. */
  model: string;
  /** The user prompt (written to the agent's stdin). */
  prompt: string;
  /** Text appended to the agent's default system prompt (Claude Code: `--append-system-prompt`). */
  appendSystemPrompt?: string;
  /** The agent's working directory (the execution's `agentRoot/`). */
  cwd: string;
  /** The codon's `env`, applied last over the built environment (reference §4.2). */
  env?: Readonly<Record<string, string>>;
  /** Resume this session (`continue-previous`, extensions) instead of starting a new one. */
  resumeSessionId?: string;
  /**
   * Where the agent log goes (`.hankweave/runs/{runId}/{codonId}-claude.log`). Appended to, so an
   * extension adds to the same log; parent directories are created.
   */
  logPath: string;
  /** Stop the agent when it prints nothing for this long. Default 180000 (reference §4.2). */
  idleTimeoutMs?: number;
  /** Aborting it kills the agent as {@link AgentSession.kill} does. */
  signal?: AbortSignal;
  /**
   * Whether the agent may compact its context. When true, a `compact_boundary` counts as context
   * exceeded (reference §4.5). Undefined leaves the agent's own setting alone.
   */
  autoCompact?: boolean;
  /**
   * Run the agent, with every tool and child process, in this OS sandbox. An adapter adds what its
   * agent must write (its config or session directory) and read (its installation) and spawns
   * through `AgentProcess` with it. Harnesses that run no process (replay, fakes) ignore it.
   */
  sandbox?: SandboxPolicy;
}

/** A running agent. */
export interface AgentSession {
  /** Process id of the agent (a synthetic one, 900000 + n, for harnesses without a process). */
  readonly pid: number;
  /** The agent log being written. */
  readonly logPath: string;
  /**
   * Every event, in log order, ending when the agent has exited and the log is complete. Events are
   * buffered from the start, so a late or second `for await` still sees all of them.
   */
  readonly events: AsyncIterable<AgentEvent>;
  /**
   * Stops the agent: SIGTERM, then SIGKILL after the grace period (default 5 s). Resolves when the
   * agent has exited. The outcome then has `killed: true`. Idempotent.
   */
  kill(reason?: string): Promise<void>;
  /** Resolves once, after the last event, with how the attempt ended. Never rejects. */
  readonly outcome: Promise<AgentOutcome>;
}

/** Per-model usage as the agent reported it in its result (`token.usage.modelUsage`). */
export type ModelUsage = Record<
  string,
  {
    inputTokens: number;
    outputTokens: number;
    cacheReadInputTokens?: number;
    cacheCreationInputTokens?: number;
    costUSD: number;
  }
>;

/** How an attempt ended: everything the runtime needs to complete, fail or retry the codon. */
export interface AgentOutcome {
  /** The agent's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended the agent, also when it trapped it and exited with 128 + n. */
  signal?: NodeJS.Signals;
  /** Whether any `result` line arrived. */
  resultReceived: boolean;
  /** The session id the agent reported (the one to resume). */
  sessionId?: string;
  /** Final cost in USD: `total_cost_usd`, else the priced result usage, else the deltas (§4.8). */
  finalCost: number;
  /** Final tokens: the result's usage, else the sum of the assistant messages' usage. */
  finalTokens: TokenUsage;
  /** The result's `modelUsage`, converted. */
  modelUsage?: ModelUsage;
  /** Why the attempt failed; absent on success, on `kill()` and when the context was exceeded. */
  failureReason?: FailureReason;
  /** Whether the conversation exceeded the context window (reference §4.5). */
  contextExceeded: boolean;
  /** Whether `kill()` or the abort signal stopped the agent. */
  killed: boolean;
  /** Whether the idle watchdog or an API timeout stopped the agent. */
  timedOut: boolean;
  /** The text of the error result, when there was one (and no success result before it). */
  errorResultText?: string;
  /** The agent's final message: the text of its success result (plateau loops read decisions here). */
  resultText?: string;
  /** Distinct assistant messages of the main conversation (`assistantMessageCount`). */
  assistantMessageCount: number;
}

/**
 * The spec every agent adapter implements: run an agent for a codon and say what it does. The log
 * file is the source of truth: events come from parsing the lines written to `logPath`.
 */
export interface AgentHarness {
  /** Short name for logs (`claude-code`, `replay`, `fake`). */
  readonly name: string;
  /**
   * True when the agent processes it starts run in `AgentStartOptions.sandbox` (the Claude Code
   * and Pi adapters). A harness without it that starts processes leaves them uncontained; the
   * runtime says so at start. Harnesses that start no process leave it out.
   */
  readonly appliesSandbox?: boolean;
  /**
   * Starts the agent. Resolves once it runs (the pid is known).
   * @throws {HarnessError} HARNESS_BINARY_NOT_FOUND when no agent binary can be found;
   * HARNESS_ROOT_NOT_ALLOWED when running as root without permission to set `IS_SANDBOX=1`;
   * HARNESS_SPAWN_FAILED when the process cannot start; HARNESS_LOG_WRITE_FAILED when the log
   * cannot be opened; HARNESS_LOG_NOT_FOUND when a replay has no recorded log;
   * HARNESS_INVALID_OPTIONS for unusable options.
   */
  start(options: AgentStartOptions): Promise<AgentSession>;
}

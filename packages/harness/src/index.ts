// Public surface of @hankweave/harness: named exports only.

// The adapter kit: what an agent adapter (such as @hankweave/claude-code) builds its session from.
export { AgentLogPipeline, type AgentLogPipelineOptions } from './adapter/agent-log-pipeline.js';
export { AgentProcess, type ProcessExit } from './adapter/agent-process.js';
export { BusyFloorAllowance } from './adapter/busy-floor-allowance.js';
export { checkWorkingDirectory } from './adapter/check-working-directory.js';
export { type AgentExit, classifyExit, type StopFlags } from './adapter/classify-exit.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  type IdleAllowance,
  IdleWatchdog,
} from './adapter/idle-watchdog.js';
export { killOnAbort } from './adapter/kill-on-abort.js';
export {
  type AgentLogSink,
  type AgentOutputTranslator,
  DEFAULT_KILL_GRACE_MS,
  ProcessSession,
  type ProcessSessionSpec,
} from './adapter/process-session.js';
export { validateStartOptions } from './adapter/validate-start-options.js';
export type {
  AgentEvent,
  AgentEventType,
  ApiRetryEvent,
  ApiTimeoutEvent,
  AssistantActionEvent,
  AssistantMessageCountedEvent,
  ContextExceededEvent,
  ResultEvent,
  SessionStartedEvent,
  StderrEvent,
  TokenUsageEvent,
  ToolResultEvent,
  WarningEvent,
} from './agent-event.js';
export type {
  AgentHarness,
  AgentOutcome,
  AgentSession,
  AgentStartOptions,
  ModelUsage,
} from './agent-harness.js';
export { type BuildAgentEnvOptions, buildAgentEnv } from './build-agent-env.js';
export {
  type ApiErrorClassification,
  classifyApiErrorText,
} from './classify/classify-api-error-text.js';
export { HARNESS_ERROR_CODES, HarnessError, type HarnessErrorCode } from './errors.js';
// Typed builders of the Claude-format lines an adapter translates its agent's output into.
export {
  type ApiRetryLineInput,
  type AssistantLineInput,
  apiRetryLine,
  assistantLine,
  compactBoundaryLine,
  type ResultLineInput,
  resultLine,
  type SystemInitLineInput,
  systemInitLine,
  type ToolResultLineInput,
  toolResultLine,
} from './log-lines/claude-log-lines.js';
export { AgentLogParser } from './parser/agent-log-parser.js';
export type { AgentLogParserOptions, AgentLogState } from './parser/agent-log-state.js';
export type { FinalCost } from './parser/final-cost.js';
export { ReplayHarness, type ReplayHarnessOptions } from './replay/replay-harness.js';
export {
  type BubblewrapInput,
  bubblewrapArgs,
  SANDBOX_BASE_FLAGS,
  SANDBOX_TMP,
  type SandboxMount,
} from './sandbox/bubblewrap-args.js';
export {
  BUBBLEWRAP_PATH_ENV,
  type DetectSandboxOptions,
  detectSandbox,
  SANDBOX_INSTALL_HINT,
  type SandboxAvailability,
} from './sandbox/detect-sandbox.js';
export { sandboxCommand } from './sandbox/sandbox-command.js';
export {
  type CommandLine,
  extendSandboxPolicy,
  SANDBOX_NETWORKS,
  type SandboxedCommandLine,
  type SandboxNetwork,
  type SandboxPolicy,
} from './sandbox/sandbox-policy.js';
export { sandboxedCommandPid } from './sandbox/sandboxed-command-pid.js';

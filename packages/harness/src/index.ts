// Public surface of @hankweave/harness: named exports only.

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
export {
  AgentLogWriter,
  killNoteLogLine,
  stampStdoutLine,
  stderrLogLine,
} from './agent-log-writer.js';
export {
  type BuildAgentEnvOptions,
  buildAgentEnv,
  PASSTHROUGH_ENV_NAMES,
  PASSTHROUGH_ENV_PREFIXES,
  UNSET_ENV_VALUE,
} from './build-agent-env.js';
export { API_ERROR_RULES, type ApiErrorRule } from './classify/api-error-rules.js';
export {
  type ApiErrorClassification,
  classifyApiErrorText,
} from './classify/classify-api-error-text.js';
export { isContextExceededText } from './classify/context-exceeded.js';
export {
  deriveFailureReason,
  type FailureEvidence,
  SYNTHETIC_TIMEOUT_TEXT,
  synthesizeMissingFailureReason,
} from './classify/derive-failure-reason.js';
export { parseRetryAfterMs } from './classify/parse-retry-after.js';
export { buildClaudeArgs } from './claude-code/claude-args.js';
export {
  ClaudeCodeHarness,
  type ClaudeCodeHarnessOptions,
} from './claude-code/claude-code-harness.js';
export {
  CLAUDE_CODE_PACKAGE,
  type ClaudeBinarySource,
  type ResolveClaudeBinaryOptions,
  type ResolvedClaudeBinary,
  resolveClaudeBinary,
} from './claude-code/resolve-claude-binary.js';
export { HARNESS_ERROR_CODES, HarnessError, type HarnessErrorCode } from './errors.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  IDLE_TIMEOUT_MESSAGE_PREFIX,
  MAX_IDLE_TIMEOUT_MS,
} from './internal/idle-timeout.js';
export { AgentLogParser } from './parser/agent-log-parser.js';
export type { AgentLogParserOptions, AgentLogState } from './parser/agent-log-state.js';
export type { FinalCost } from './parser/final-cost.js';
export { TOOL_RESULT_MAX_CHARS } from './parser/tool-result-text.js';
export {
  costOfUsage,
  DEFAULT_PRICING,
  findModelPrice,
  type ModelPrice,
  type PricingEntry,
  parseModelId,
  priceUsage,
} from './pricing.js';
export {
  computeReplayDelays,
  DEFAULT_REPLAY_MAX_DELAY_MS,
  DEFAULT_REPLAY_MIN_DELAY_MS,
  type ReplayPacing,
} from './replay/replay-delays.js';
export { ReplayHarness, type ReplayHarnessOptions } from './replay/replay-harness.js';

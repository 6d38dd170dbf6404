import type { EventData, TokenUsage } from '@hankweave/types';

/**
 * What the agent did, as parsed from its log. Every event carries the `timestamp` of the log line
 * it came from. The three events the runtime journals as they are (`assistant.action`,
 * `tool.result`, `token.usage`) hold their payload in `data`, exactly the `@hankweave/types`
 * event data, so wrapping one is `{ type: event.type, timestamp: event.timestamp, data: event.data }`.
 */
export type AgentEvent =
  | SessionStartedEvent
  | AssistantActionEvent
  | ToolResultEvent
  | TokenUsageEvent
  | AssistantMessageCountedEvent
  | ApiRetryEvent
  | ApiTimeoutEvent
  | ContextExceededEvent
  | ResultEvent
  | StderrEvent
  | WarningEvent;

/** The agent reported its session (`system/init`, or the first line carrying a `session_id`). */
export interface SessionStartedEvent {
  type: 'session.started';
  timestamp: string;
  sessionId: string;
  /** The model the agent runs, when the line says so. */
  model?: string;
  /** `claude_code_version` of the init line. */
  claudeCodeVersion?: string;
  /** The agent's working directory, when the line says so. */
  cwd?: string;
}

/** A thinking block, a text block or a tool call of an assistant message. */
export interface AssistantActionEvent {
  type: 'assistant.action';
  timestamp: string;
  data: EventData<'assistant.action'>;
}

/** The result of a tool call, matched to its `tool_use` (truncated to 2500 characters). */
export interface ToolResultEvent {
  type: 'tool.result';
  timestamp: string;
  data: EventData<'tool.result'>;
}

/**
 * Tokens and cost. `final: false`: the increase caused by one assistant message (deltas, and
 * `totalCost` is the cost delta). `final: true`: emitted once when the session ends, the final
 * totals (`totalCost` = final cost, reference §4.8), with `modelUsage` when the agent gave one.
 */
export interface TokenUsageEvent {
  type: 'token.usage';
  timestamp: string;
  final: boolean;
  data: EventData<'token.usage'>;
}

/** The number of distinct assistant messages (API responses) of the main conversation so far. */
export interface AssistantMessageCountedEvent {
  type: 'assistant.message.counted';
  timestamp: string;
  count: number;
}

/** The agent is retrying an API call itself (`system/api_retry`). */
export interface ApiRetryEvent {
  type: 'api.retry';
  timestamp: string;
  attempt?: number;
  maxRetries?: number;
  retryDelayMs?: number;
  errorStatus?: number;
  error?: string;
}

/**
 * The agent's API call timed out (a `<synthetic>` assistant message `API Error: Request timed
 * out.`). Not forwarded as an `assistant.action`; the Claude Code harness stops the agent.
 */
export interface ApiTimeoutEvent {
  type: 'api.timeout';
  timestamp: string;
  message: string;
}

/** The conversation no longer fits the context window (emitted once per session). */
export interface ContextExceededEvent {
  type: 'context.exceeded';
  timestamp: string;
  /** The evidence: the error text, or `compact_boundary`. */
  reason: string;
}

/** A `result` line: the end of a turn. `isError` is also true for `success` + `is_error`. */
export interface ResultEvent {
  type: 'result';
  timestamp: string;
  subtype: string;
  isError: boolean;
  /** `result`, else `error`, else the joined `errors` of the line. */
  text?: string;
  sessionId?: string;
  totalCostUsd?: number;
  usage?: TokenUsage;
  numTurns?: number;
  durationMs?: number;
}

/** One line the agent wrote to stderr. */
export interface StderrEvent {
  type: 'stderr';
  timestamp: string;
  line: string;
}

/** Something the runtime may want to log: an unpriced model, a cost mismatch, a bad line. */
export interface WarningEvent {
  type: 'warning';
  timestamp: string;
  message: string;
}

/** The `type` of every {@link AgentEvent}. */
export type AgentEventType = AgentEvent['type'];

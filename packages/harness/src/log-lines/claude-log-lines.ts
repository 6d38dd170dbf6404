import type {
  AgentAssistantLine,
  AgentContentBlock,
  AgentResultLine,
  AgentSystemLine,
  AgentUsage,
  AgentUserLine,
} from '@hankweave/types';

// Builders of the Claude Code stream-json lines an adapter writes when its agent speaks another
// format (Pi), or when the harness speaks for the agent (the idle watchdog's result). Typed by the
// agent log line types of @hankweave/types, which the parser reads them with, so a field the
// parser expects cannot go missing or change its type unnoticed. Field order follows Claude Code's
// own lines; the log keeps it byte for byte.

/** Input of {@link systemInitLine}. */
export interface SystemInitLineInput {
  sessionId: string;
  /** The model the session runs (the catalog prices lines that name no model by it). */
  model?: string;
  cwd?: string;
  /** The agent that wrote the log when it is not Claude Code (`pi`). */
  agent?: string;
}

/** `system/init`: the first line of a session, naming its id. */
export function systemInitLine(input: SystemInitLineInput): AgentSystemLine {
  return {
    type: 'system',
    subtype: 'init',
    session_id: input.sessionId,
    ...(input.model !== undefined && { model: input.model }),
    ...(input.cwd !== undefined && { cwd: input.cwd }),
    ...(input.agent !== undefined && { agent: input.agent }),
  };
}

/** Input of {@link apiRetryLine}. */
export interface ApiRetryLineInput {
  sessionId: string;
  attempt?: number;
  maxRetries?: number;
  retryDelayMs?: number;
  /** The HTTP status of the failed request. */
  errorStatus?: number;
  error?: string;
}

/** `system/api_retry`: the agent retries a failed request by itself (an `api.retry` event). */
export function apiRetryLine(input: ApiRetryLineInput): AgentSystemLine {
  return {
    type: 'system',
    subtype: 'api_retry',
    session_id: input.sessionId,
    ...(input.attempt !== undefined && { attempt: input.attempt }),
    ...(input.maxRetries !== undefined && { max_retries: input.maxRetries }),
    ...(input.retryDelayMs !== undefined && { retry_delay_ms: input.retryDelayMs }),
    ...(input.errorStatus !== undefined && { error_status: input.errorStatus }),
    ...(input.error !== undefined && { error: input.error }),
  };
}

/**
 * `system/compact_boundary`: the agent compacted its context (context exceeded when the session
 * runs with `autoCompact`).
 */
export function compactBoundaryLine(input: { sessionId: string }): AgentSystemLine {
  return { type: 'system', subtype: 'compact_boundary', session_id: input.sessionId };
}

/** Input of {@link assistantLine}: one API message of the model. */
export interface AssistantLineInput {
  sessionId: string;
  /** The message id: lines with the same id are one message, its usage counted once. */
  id: string;
  model: string;
  content: AgentContentBlock[];
  /** Claude's stop reason (`end_turn`, `tool_use`, `max_tokens`), or null. */
  stopReason: string | null;
  usage: AgentUsage;
}

/** An `assistant` line: the model's message, its content blocks and usage. */
export function assistantLine(input: AssistantLineInput): AgentAssistantLine {
  return {
    type: 'assistant',
    session_id: input.sessionId,
    message: {
      id: input.id,
      type: 'message',
      role: 'assistant',
      model: input.model,
      content: input.content,
      stop_reason: input.stopReason,
      usage: input.usage,
    },
  };
}

/** Input of {@link toolResultLine}. */
export interface ToolResultLineInput {
  sessionId: string;
  /** The id of the `tool_use` block this answers. */
  toolUseId: string;
  /** The tool's output: a string, or content blocks (text parts are joined by the parser). */
  content: string | AgentContentBlock[];
  isError: boolean;
}

/** A `user` line carrying one `tool_result` block: the answer to a tool call. */
export function toolResultLine(input: ToolResultLineInput): AgentUserLine {
  return {
    type: 'user',
    session_id: input.sessionId,
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: input.toolUseId,
          content: input.content,
          is_error: input.isError,
        },
      ],
    },
  };
}

/** Input of {@link resultLine}. */
export interface ResultLineInput {
  /** `success`, or an error subtype (`error`, `error_during_execution`). */
  subtype: string;
  /** True for any failure, also with subtype `success` (the parser reads that as an error). */
  isError: boolean;
  /** The final message, or the error text the failure is classified by. */
  result: string;
  sessionId: string;
  numTurns: number;
  durationMs?: number;
  durationApiMs?: number;
  /** This process's usage: the final tokens, priced when `totalCostUsd` is absent. */
  usage?: AgentUsage;
  /** The final cost in USD. */
  totalCostUsd?: number;
  /** Set when the harness writes the line itself (the log writer keeps it). */
  timestamp?: string;
}

/** A `result` line: the end of the agent's run, success or failure, with its final figures. */
export function resultLine(input: ResultLineInput): AgentResultLine {
  return {
    type: 'result',
    subtype: input.subtype,
    is_error: input.isError,
    result: input.result,
    num_turns: input.numTurns,
    duration_ms: input.durationMs ?? 0,
    duration_api_ms: input.durationApiMs ?? 0,
    session_id: input.sessionId,
    ...(input.usage !== undefined && { usage: input.usage }),
    ...(input.totalCostUsd !== undefined && { total_cost_usd: input.totalCostUsd }),
    ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
  };
}

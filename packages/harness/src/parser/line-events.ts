import type { AgentResultLine, AgentSystemLine } from '@hankweave/types';
import type { AssistantActionEvent, ResultEvent, ToolResultEvent } from '../agent-event.js';
import type { PendingToolUse } from './line-helpers.js';
import { toolResultText, truncateToolResult } from './tool-result-text.js';
import { toTokenUsage } from './usage-ledger.js';

// Pure builders of event payloads from parsed lines; the parser keeps the state.

/** The `assistant.action` payload of one content block, or undefined for other block types. */
export function blockAction(
  block: Record<string, unknown>,
  codonId: string,
  parentToolUseId: string | null | undefined,
): AssistantActionEvent['data'] | undefined {
  let data: AssistantActionEvent['data'] | undefined;
  if (block.type === 'text' && typeof block.text === 'string') {
    data = { codonId, action: 'message', content: block.text };
  } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
    data = { codonId, action: 'thinking', content: block.thinking };
  } else if (block.type === 'tool_use' && typeof block.name === 'string') {
    data = {
      codonId,
      action: 'tool_use',
      content: '',
      toolName: block.name,
      toolInput: block.input,
    };
    if (typeof block.id === 'string') data.toolUseId = block.id;
  }
  // Subagent lines stay visible, marked with the tool call that spawned them.
  if (data && parentToolUseId) data.parentToolUseId = parentToolUseId;
  return data;
}

/** The `tool.result` payload of a `tool_result` block, timed against its pending tool use. */
export function toolResultData(input: {
  block: Record<string, unknown> & { tool_use_id: string };
  pending: PendingToolUse | undefined;
  timestamp: string;
  codonId: string;
}): ToolResultEvent['data'] {
  const { block, pending } = input;
  const elapsed =
    Date.parse(input.timestamp) - (pending ? Date.parse(pending.timestamp) : Number.NaN);
  return {
    codonId: input.codonId,
    toolUseId: block.tool_use_id,
    toolName: pending?.name ?? 'unknown',
    ...truncateToolResult(toolResultText(block.content)),
    executionTimeMs: Number.isFinite(elapsed) && elapsed > 0 ? elapsed : 0,
    isError: block.is_error === true,
  };
}

/** The `result` event of a result line. */
export function resultEvent(
  line: AgentResultLine,
  fields: { timestamp: string; subtype: string; isError: boolean; text: string | undefined },
): ResultEvent {
  const event: ResultEvent = {
    type: 'result',
    timestamp: fields.timestamp,
    subtype: fields.subtype,
    isError: fields.isError,
  };
  if (fields.text !== undefined) event.text = fields.text;
  if (line.session_id !== undefined) event.sessionId = line.session_id;
  if (line.total_cost_usd !== undefined) event.totalCostUsd = line.total_cost_usd;
  if (line.usage) event.usage = toTokenUsage(line.usage);
  if (line.num_turns !== undefined) event.numTurns = line.num_turns;
  if (line.duration_ms !== undefined) event.durationMs = line.duration_ms;
  return event;
}

/** What a `system/init` line says about the session. */
export function initDetails(line: AgentSystemLine): {
  model?: string;
  claudeCodeVersion?: string;
  cwd?: string;
} {
  const details: { model?: string; claudeCodeVersion?: string; cwd?: string } = {};
  if (line.model !== undefined) details.model = line.model;
  if (line.claude_code_version !== undefined) details.claudeCodeVersion = line.claude_code_version;
  if (line.cwd !== undefined) details.cwd = line.cwd;
  return details;
}

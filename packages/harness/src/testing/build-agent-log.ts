import { randomUUID } from 'node:crypto';
import {
  type AgentContentBlock,
  type AgentLogLine,
  type AgentUsage,
  addTokenUsage,
  defaultModelCatalog,
  emptyTokenUsage,
  type ModelCatalog,
  type TokenUsage,
} from '@hankweave/types';

/** One assistant message of a fake conversation; its blocks are printed in this order. */
export interface FakeTurn {
  thinking?: string;
  text?: string;
  /** A tool call, answered by a tool result line (`result`, default `ok`). */
  toolUse?: { name: string; input?: unknown; result?: string; isError?: boolean };
  /** Usage of the message; missing counts are 0 (1 input and 1 output when all are missing). */
  usage?: Partial<TokenUsage>;
}

/** A whole fake agent run, turned into Claude Code stream-json lines by {@link buildAgentLog}. */
export interface FakeAgentScenario {
  sessionId?: string;
  model?: string;
  claudeCodeVersion?: string;
  turns?: readonly FakeTurn[];
  /**
   * How the run ends: `success` (default), an error result with this text, `success` with
   * `is_error: true` and this text (Claude Code's disguised errors), or no result at all.
   */
  result?: 'success' | { error: string } | { successIsError: string } | 'none';
  /** `total_cost_usd` of the result; default: the usage priced by the model catalog. */
  totalCostUsd?: number;
}

function usageOf(turn: FakeTurn): TokenUsage {
  const given = turn.usage ?? { inputTokens: 1, outputTokens: 1 };
  return { ...emptyTokenUsage(), ...given };
}

function apiUsage(usage: TokenUsage): AgentUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
  };
}

/**
 * Claude Code stream-json lines for `scenario`, shaped like the real agent's: `system/init`, one
 * assistant line per content block (all repeating the message id and usage), a user line per
 * tool result, and a final `result` with `total_cost_usd`, `usage` and `modelUsage`. The default
 * `total_cost_usd` prices the usage with `options.models` (default `defaultModelCatalog`).
 */
export function buildAgentLog(
  scenario: FakeAgentScenario = {},
  options: { models?: ModelCatalog } = {},
): string[] {
  const sessionId = scenario.sessionId ?? randomUUID();
  const model = scenario.model ?? 'claude-sonnet-4-5';
  const common = { parent_tool_use_id: null, session_id: sessionId };
  const lines: AgentLogLine[] = [
    {
      type: 'system',
      subtype: 'init',
      cwd: process.cwd(),
      session_id: sessionId,
      model,
      permissionMode: 'bypassPermissions',
      claude_code_version: scenario.claudeCodeVersion ?? '2.1.329',
      uuid: randomUUID(),
    },
  ];
  let total = emptyTokenUsage();
  (scenario.turns ?? [{ text: 'Done.' }]).forEach((turn, index) => {
    const usage = usageOf(turn);
    total = addTokenUsage(total, usage);
    const id = `msg_fake_${String(index + 1).padStart(4, '0')}`;
    const toolUseId = `toolu_fake_${index + 1}`;
    const blocks: AgentContentBlock[] = [];
    if (turn.thinking !== undefined)
      blocks.push({ type: 'thinking', thinking: turn.thinking, signature: 'fake' });
    if (turn.text !== undefined) blocks.push({ type: 'text', text: turn.text });
    if (turn.toolUse) {
      blocks.push({
        type: 'tool_use',
        id: toolUseId,
        name: turn.toolUse.name,
        input: turn.toolUse.input ?? {},
      });
    }
    for (const block of blocks) {
      lines.push({
        type: 'assistant',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [block],
          stop_reason: null,
          usage: apiUsage(usage),
        },
        ...common,
        uuid: randomUUID(),
      });
    }
    if (turn.toolUse) {
      lines.push({
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              tool_use_id: toolUseId,
              type: 'tool_result',
              content: turn.toolUse.result ?? 'ok',
              is_error: turn.toolUse.isError === true,
            },
          ],
        },
        ...common,
        uuid: randomUUID(),
      });
    }
  });
  const ending = scenario.result ?? 'success';
  if (ending === 'none') return lines.map((line) => JSON.stringify(line));
  const cost =
    scenario.totalCostUsd ?? (options.models ?? defaultModelCatalog).priceUsage(model, total).cost;
  const isError = ending !== 'success';
  const text =
    ending === 'success' ? 'Done.' : 'error' in ending ? ending.error : ending.successIsError;
  lines.push({
    type: 'result',
    subtype: ending !== 'success' && 'error' in ending ? 'error_during_execution' : 'success',
    is_error: isError,
    duration_ms: 10,
    duration_api_ms: 5,
    num_turns: scenario.turns?.length ?? 1,
    result: text,
    session_id: sessionId,
    total_cost_usd: cost,
    usage: apiUsage(total),
    modelUsage: {
      [model]: {
        inputTokens: total.inputTokens,
        outputTokens: total.outputTokens,
        cacheReadInputTokens: total.cacheReadTokens,
        cacheCreationInputTokens: total.cacheCreationTokens,
        costUSD: cost,
      },
    },
    uuid: randomUUID(),
  });
  return lines.map((line) => JSON.stringify(line));
}

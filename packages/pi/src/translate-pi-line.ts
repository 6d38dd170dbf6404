// Pi's `--mode json` lines → the Claude-style agent-log records `@hankweave/harness` parses
// (reference §4.3: "Pi events are translated into Claude-style system / assistant / user /
// result JSONL records"). Pure: the state goes in and comes out, nothing is mutated, so each Pi
// line can be unit-tested against the records it must produce. The records are built by the
// harness's typed Claude log line builders, so they have the shape the parser reads.

import {
  apiRetryLine,
  assistantLine,
  compactBoundaryLine,
  resultLine,
  systemInitLine,
  toolResultLine,
} from '@hankweave/harness';
import type { AgentContentBlock, AgentLogLine } from '@hankweave/types';

/** One Claude-style agent-log record (without the `timestamp` the log writer stamps on). */
export type ClaudeRecord = AgentLogLine;

/**
 * Claude-style token usage, as the harness parser reads it. A type, not an interface: it must be
 * assignable to the loose `AgentUsage` of the typed lines (an interface has no index signature).
 */
export type ClaudeUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

/** What the translation of one Pi process knows so far. Create with {@link initialPiTranslation}. */
export interface PiTranslationState {
  /** The model id the runtime asked for: every record names it, so the catalog prices it. */
  readonly model: string;
  /** The cwd the agent was started in (for `system/init`). */
  readonly cwd?: string;
  /** Pi's session id (its `session` line), the id a later start resumes. */
  readonly sessionId?: string;
  /** Assistant messages translated so far (numbering messages without a response id). */
  readonly messageCount: number;
  /** Usage of every assistant message of this process (the result's usage). */
  readonly usage: ClaudeUsage;
  /** Pi's own cost of those messages (its model table; 0 for custom models). */
  readonly piCost: number;
  /** The last assistant message: its text, and its error when it failed. */
  readonly lastText?: string;
  readonly lastError?: string;
  /** Pi reported an overflow (`compaction_start` with reason `overflow`). */
  readonly overflow: boolean;
  /** `agent_end` arrived: the result is due unless Pi retries (`auto_retry_start`). */
  readonly ended: boolean;
  /** The result has been written. */
  readonly resultWritten: boolean;
}

/** Prices the result's usage; undefined when the catalog has no price for the model. */
export type PriceUsage = (model: string, usage: ClaudeUsage) => number | undefined;

/** The state before Pi's first line. */
export function initialPiTranslation(input: { model: string; cwd?: string }): PiTranslationState {
  return {
    model: input.model,
    ...(input.cwd !== undefined && { cwd: input.cwd }),
    messageCount: 0,
    usage: zeroUsage(),
    piCost: 0,
    overflow: false,
    ended: false,
    resultWritten: false,
  };
}

/** The records of one Pi line, and the state after it. */
export interface PiTranslation {
  state: PiTranslationState;
  records: ClaudeRecord[];
}

type PiLine = Record<string, unknown> & { type?: unknown };
type PiBlock = Record<string, unknown> & { type?: unknown };

// Pi's texts of a context overflow (OpenAI's two APIs, Anthropic, Google and local servers
// phrase it differently: "maximum context length", "exceeds the context window", "prompt is too
// long", "input token count (N) exceeds the maximum number of tokens"); they become Claude's
// "Prompt is too long" so the parser sees context exceeded.
const OVERFLOW_TEXT =
  /context_length_exceeded|maximum context length|context window|prompt is too long|too many tokens|exceeds the maximum number of tokens/i;

/**
 * Translates one parsed Pi line. Lines that carry nothing the log needs (`agent_start`,
 * `turn_start`, `message_update`, `tool_execution_*`, user messages) give no records; the result
 * is written by {@link finishPiTranslation}, because Pi may still retry after `agent_end`.
 */
export function translatePiLine(state: PiTranslationState, line: PiLine): PiTranslation {
  switch (line.type) {
    case 'session':
      return onSession(state, line);
    case 'message_end':
      return onMessageEnd(state, asRecord(line.message));
    case 'agent_end':
      return { state: { ...state, ended: true }, records: [] };
    case 'auto_retry_start':
      // Pi tries again: the failure before it is not the outcome.
      return {
        state: { ...state, ended: false, lastError: undefined },
        records: [retryRecord(state, line)],
      };
    case 'compaction_start':
      if (line.reason !== 'overflow') return { state, records: [] };
      return {
        state: { ...state, overflow: true },
        records: [compactBoundaryLine({ sessionId: state.sessionId ?? '' })],
      };
    default:
      return { state, records: [] };
  }
}

/**
 * The `result` record once Pi has exited: success with the last text, or an error with the last
 * API error (Pi exits 0 even when the API failed). None when Pi never finished a run (killed,
 * crashed): the harness then reports the exit as it was.
 */
export function finishPiTranslation(state: PiTranslationState, price: PriceUsage): PiTranslation {
  if (!state.ended || state.resultWritten) return { state, records: [] };
  const usage = state.usage;
  const cost = price(state.model, usage) ?? (state.piCost > 0 ? state.piCost : undefined);
  const error = state.lastError;
  const record = resultLine({
    ...(error === undefined
      ? { subtype: 'success', isError: false, result: state.lastText ?? '' }
      : { subtype: 'error', isError: true, result: errorText(error, state.overflow) }),
    sessionId: state.sessionId ?? '',
    numTurns: state.messageCount,
    usage,
    ...(cost !== undefined && { totalCostUsd: cost }),
  });
  return { state: { ...state, resultWritten: true }, records: [record] };
}

function onSession(state: PiTranslationState, line: PiLine): PiTranslation {
  const sessionId = typeof line.id === 'string' ? line.id : undefined;
  if (sessionId === undefined) return { state, records: [] };
  const cwd = typeof line.cwd === 'string' ? line.cwd : state.cwd;
  return {
    state: { ...state, sessionId },
    records: [
      systemInitLine({
        sessionId,
        model: state.model,
        ...(cwd !== undefined && { cwd }),
        agent: 'pi',
      }),
    ],
  };
}

function onMessageEnd(
  state: PiTranslationState,
  message: Record<string, unknown> | undefined,
): PiTranslation {
  if (message?.role === 'assistant') return onAssistant(state, message);
  if (message?.role === 'toolResult') {
    return { state, records: [toolResultRecord(state, message)] };
  }
  return { state, records: [] };
}

function onAssistant(state: PiTranslationState, message: Record<string, unknown>): PiTranslation {
  const blocks = Array.isArray(message.content) ? (message.content as PiBlock[]) : [];
  const content = blocks.flatMap(claudeBlock);
  const failed = message.stopReason === 'error';
  const error = failed ? String(message.errorMessage ?? 'Pi reported an API error') : undefined;
  const usage = claudeUsage(asRecord(message.usage));
  const piCost = numberOf(asRecord(asRecord(message.usage)?.cost)?.total);
  const text = content
    .filter((block) => block.type === 'text')
    .map((block) => block.text as string)
    .join('\n');
  const next: PiTranslationState = {
    ...state,
    usage: addUsage(state.usage, usage),
    piCost: state.piCost + piCost,
    lastText: text,
    lastError: error,
    ...(error !== undefined && OVERFLOW_TEXT.test(error) && { overflow: true }),
  };
  // A failed request with nothing in it is Pi's error notice, not a model turn (Claude Code
  // writes no assistant message for it either): it only shapes the result.
  if (failed && content.length === 0 && isZero(usage)) return { state: next, records: [] };
  const messageCount = state.messageCount + 1;
  const id =
    typeof message.responseId === 'string' && message.responseId !== ''
      ? message.responseId
      : `pi-${state.sessionId ?? 'session'}-${messageCount}`;
  return {
    state: { ...next, messageCount },
    records: [
      assistantLine({
        sessionId: state.sessionId ?? '',
        id,
        model: state.model,
        content,
        stopReason: claudeStopReason(message.stopReason),
        usage,
      }),
    ],
  };
}

function claudeBlock(block: PiBlock): AgentContentBlock[] {
  if (block.type === 'text' && typeof block.text === 'string') {
    return block.text === '' ? [] : [{ type: 'text', text: block.text }];
  }
  if (block.type === 'thinking' && typeof block.thinking === 'string') {
    return block.thinking === '' ? [] : [{ type: 'thinking', thinking: block.thinking }];
  }
  if (block.type === 'toolCall' && typeof block.id === 'string') {
    return [
      {
        type: 'tool_use',
        id: block.id,
        name: String(block.name ?? 'unknown'),
        input: asRecord(block.arguments) ?? {},
      },
    ];
  }
  return [];
}

function toolResultRecord(
  state: PiTranslationState,
  message: Record<string, unknown>,
): ClaudeRecord {
  const parts = Array.isArray(message.content) ? (message.content as PiBlock[]) : [];
  const content = parts.flatMap((part): AgentContentBlock[] =>
    part.type === 'text' && typeof part.text === 'string'
      ? [{ type: 'text', text: part.text }]
      : part.type === 'image'
        ? [{ type: 'text', text: '[image]' }]
        : [],
  );
  return toolResultLine({
    sessionId: state.sessionId ?? '',
    toolUseId: String(message.toolCallId ?? ''),
    content,
    isError: message.isError === true,
  });
}

function retryRecord(state: PiTranslationState, line: PiLine): ClaudeRecord {
  const error = typeof line.errorMessage === 'string' ? line.errorMessage : undefined;
  const status = error === undefined ? undefined : /^(\d{3})\b/.exec(error)?.[1];
  return apiRetryLine({
    sessionId: state.sessionId ?? '',
    ...(typeof line.attempt === 'number' && { attempt: line.attempt }),
    ...(typeof line.maxAttempts === 'number' && { maxRetries: line.maxAttempts }),
    ...(typeof line.delayMs === 'number' && { retryDelayMs: line.delayMs }),
    ...(status !== undefined && { errorStatus: Number(status) }),
    ...(error !== undefined && { error }),
  });
}

function errorText(error: string, overflow: boolean): string {
  // The parser and the classifier know Claude's phrase for an overflow (reference §4.5).
  return overflow || OVERFLOW_TEXT.test(error) ? `Prompt is too long: ${error}` : error;
}

function claudeStopReason(stopReason: unknown): string | null {
  if (stopReason === 'toolUse') return 'tool_use';
  if (stopReason === 'stop') return 'end_turn';
  if (stopReason === 'length') return 'max_tokens';
  return null;
}

function claudeUsage(usage: Record<string, unknown> | undefined): ClaudeUsage {
  return {
    input_tokens: numberOf(usage?.input),
    output_tokens: numberOf(usage?.output),
    cache_read_input_tokens: numberOf(usage?.cacheRead),
    cache_creation_input_tokens: numberOf(usage?.cacheWrite),
  };
}

function zeroUsage(): ClaudeUsage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
}

function addUsage(a: ClaudeUsage, b: ClaudeUsage): ClaudeUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  };
}

function isZero(usage: ClaudeUsage): boolean {
  return Object.values(usage).every((value) => value === 0);
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

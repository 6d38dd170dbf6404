// Model requests (`chat <model>`, one per token.usage) and tool calls (`execute_tool <name>`).
import { GEN_AI, HANKWEAVE } from '../attributes.js';
import { providerOf } from './provider.js';
import type { CodonState, SpanBook } from './span-book.js';
import { addUsage, usageAttributes, usageOf } from './usage.js';
import { asJson, clip, num, str } from './values.js';

/** token.usage: a model request's answer arrived; opens its span (or reconciles the cost). */
export function tokenUsage(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  const usage = usageOf(data);
  const cost = num(data.totalCost) ?? 0;
  const modelId = str(data.modelId);
  if (modelId !== undefined) codon.modelId = modelId;
  if (!codon.finalSet) {
    addUsage(codon.usage, usage);
    codon.cost += cost;
  }
  if (data.modelUsage !== undefined) {
    // The agent's final figure: an increment that reconciles the sum to it, not a request.
    const attrs = codon.span.attributes;
    attrs[HANKWEAVE.reconciliationCostUsd] =
      ((attrs[HANKWEAVE.reconciliationCostUsd] as number | undefined) ?? 0) + cost;
    return;
  }
  const model = modelId ?? codon.modelId ?? 'unknown';
  const start = Math.min(codon.boundaryMs ?? codon.lastEventMs, t);
  codon.turnCount++;
  const span = book.open(
    `chat ${model}`,
    codon.span,
    start,
    {
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.providerName]: providerOf(model),
      [GEN_AI.requestModel]: model,
      [GEN_AI.responseModel]: model,
      ...usageAttributes(usage),
      [HANKWEAVE.costUsd]: cost,
      [HANKWEAVE.codonId]: codon.codonId,
      [HANKWEAVE.turnIndex]: codon.turnCount,
      ...(codon.sessionId !== undefined ? { [GEN_AI.conversationId]: codon.sessionId } : {}),
    },
    'client',
  );
  // The request ended when its answer arrived; its actions follow, so the span ends later.
  codon.turn = { span, endMs: t, actions: 0, toolUse: false, messages: [] };
  codon.boundaryMs = t;
}

/** Ends the codon's open model request, if any, with what its actions said. */
export function closeTurn(book: SpanBook, codon: CodonState): void {
  const turn = codon.turn;
  if (!turn) return;
  codon.turn = undefined;
  const attrs = turn.span.attributes;
  attrs[HANKWEAVE.turnActions] = turn.actions;
  if (turn.actions > 0) attrs[GEN_AI.finishReasons] = [turn.toolUse ? 'tool_use' : 'end_turn'];
  if (book.options.captureContent && turn.messages.length > 0) {
    attrs[GEN_AI.outputMessages] = asJson([{ role: 'assistant', parts: turn.messages }]);
  }
  book.end(turn.span, turn.endMs);
}

/** assistant.action: one part of the answer; a tool_use also opens the tool call's span. */
export function assistantAction(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  const action = str(data.action);
  const turn = codon.turn;
  if (turn) {
    turn.actions++;
    if (action === 'tool_use') turn.toolUse = true;
    if (book.options.captureContent) {
      if (action === 'tool_use') {
        turn.messages.push({
          type: 'tool_call',
          id: str(data.toolUseId) ?? '',
          name: str(data.toolName) ?? '',
          arguments: data.toolInput ?? null,
        });
      } else {
        turn.messages.push({
          type: action === 'thinking' ? 'reasoning' : 'text',
          content: clip(str(data.content) ?? ''),
        });
      }
    }
  }
  if (action !== 'tool_use') return;
  const toolUseId = str(data.toolUseId) ?? `tool-${book.spansOpened}`;
  const toolName = str(data.toolName) ?? 'unknown';
  const span = book.open(`execute_tool ${toolName}`, codon.span, t, {
    [GEN_AI.operationName]: 'execute_tool',
    [GEN_AI.toolName]: toolName,
    [GEN_AI.toolCallId]: toolUseId,
    [HANKWEAVE.codonId]: codon.codonId,
    ...(book.options.captureContent && data.toolInput !== undefined
      ? { [GEN_AI.toolCallArguments]: asJson(data.toolInput) }
      : {}),
  });
  codon.tools.set(toolUseId, span);
}

/** tool.result: ends the tool call's span (opens it first if its tool_use was not seen). */
export function toolResult(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  const toolUseId = str(data.toolUseId) ?? '';
  const executionMs = num(data.executionTimeMs) ?? 0;
  let span = codon.tools.get(toolUseId);
  codon.tools.delete(toolUseId);
  if (!span) {
    const toolName = str(data.toolName) ?? 'unknown';
    span = book.open(`execute_tool ${toolName}`, codon.span, t - executionMs, {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: toolName,
      [GEN_AI.toolCallId]: toolUseId,
      [HANKWEAVE.codonId]: codon.codonId,
    });
  }
  const attrs = span.attributes;
  attrs[HANKWEAVE.toolExecutionMs] = executionMs;
  attrs[HANKWEAVE.toolResultLength] = num(data.originalLength) ?? 0;
  attrs[HANKWEAVE.toolResultTruncated] = data.truncated === true;
  if (book.options.captureContent) attrs[GEN_AI.toolCallResult] = clip(str(data.result) ?? '');
  if (data.isError === true) {
    attrs['error.type'] = 'tool_error';
    span.status = { code: 'error', message: 'the tool reported an error' };
  }
  book.end(span, t);
  // The next model request began when the tool's result went back.
  codon.boundaryMs = t;
}

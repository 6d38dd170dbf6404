// Sentinel calls (`sentinel <id>`, a model request of kind client): from sentinel.triggered to
// sentinel.output or sentinel.error, under the codon they watch (else the current run).
import { GEN_AI, HANKWEAVE } from '../attributes.js';
import type { SpanRecord } from '../span-record.js';
import { providerOf } from './provider.js';
import type { SpanBook } from './span-book.js';
import { asJson, clip, num, obj, str } from './values.js';

/**
 * The calls of one sentinel on one codon share this prefix (a missing id reads as ''; the ids are
 * JSON-quoted so that no id can run into the next).
 */
function callPrefix(data: Record<string, unknown>): string {
  return `${JSON.stringify([str(data.codonId) ?? '', str(data.sentinelId) ?? ''])}#`;
}

/** The key of the call an event names: its sentinel, codon and trigger number. */
function callKey(data: Record<string, unknown>): string {
  return `${callPrefix(data)}${num(data.triggerNumber) ?? 0}`;
}

/** sentinel.loaded: remembers the sentinel's model for its calls' spans. */
export function sentinelLoaded(book: SpanBook, data: Record<string, unknown>): void {
  book.sentinelModels.set(str(data.sentinelId) ?? '', str(data.model) ?? '');
}

/**
 * The span of the sentinel call an event names (codon, sentinel, trigger number), opened now if
 * it is not open: by sentinel.triggered, or by an output or error whose trigger was not seen.
 */
export function sentinelCall(book: SpanBook, data: Record<string, unknown>, t: number): SpanRecord {
  const codonId = str(data.codonId) ?? '';
  const sentinelId = str(data.sentinelId) ?? '';
  const trigger = num(data.triggerNumber) ?? 0;
  const key = callKey(data);
  const existing = book.sentinelCalls.get(key);
  if (existing) return existing;
  const model = book.sentinelModels.get(sentinelId);
  const parent = book.codons.get(codonId)?.span ?? book.currentRun()?.span;
  const span = book.open(
    `sentinel ${sentinelId}`,
    parent,
    t,
    {
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.agentName]: sentinelId,
      [HANKWEAVE.sentinelId]: sentinelId,
      [HANKWEAVE.sentinelTrigger]: trigger,
      [HANKWEAVE.codonId]: codonId,
      ...(model ? { [GEN_AI.requestModel]: model, [GEN_AI.providerName]: providerOf(model) } : {}),
    },
    'client',
  );
  book.sentinelCalls.set(key, span);
  return span;
}

/** sentinel.output: the call's tokens, cost and (captured) output; ends its span. */
export function sentinelOutput(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const span = sentinelCall(book, data, t);
  book.sentinelCalls.delete(callKey(data));
  const tokens = obj(data.tokens);
  const cost = num(data.cost) ?? 0;
  Object.assign(span.attributes, {
    [GEN_AI.inputTokens]: num(tokens.input) ?? 0,
    [GEN_AI.outputTokens]: num(tokens.output) ?? 0,
    [HANKWEAVE.costUsd]: cost,
    [HANKWEAVE.sentinelEventCount]: num(data.eventCount) ?? 0,
  });
  if (book.options.captureContent) {
    span.attributes[GEN_AI.outputMessages] = asJson([
      { role: 'assistant', parts: [{ type: 'text', content: asJson(data.content) }] },
    ]);
  }
  const codon = book.codons.get(str(data.codonId) ?? '');
  const run = codon?.runId !== undefined ? book.runs.get(codon.runId) : book.currentRun();
  if (run) run.sentinelCost += cost;
  span.status = { code: 'ok' };
  book.end(span, t);
}

/** sentinel.error: ends a call of the sentinel with the error. */
export function sentinelError(book: SpanBook, data: Record<string, unknown>, t: number): void {
  // An error carries no trigger number: it ends the sentinel's oldest open call.
  const prefix = callPrefix(data);
  const key = [...book.sentinelCalls.keys()].find((candidate) => candidate.startsWith(prefix));
  let span = key !== undefined ? book.sentinelCalls.get(key) : undefined;
  if (key !== undefined) book.sentinelCalls.delete(key);
  span ??= sentinelCall(book, data, t);
  book.sentinelCalls.delete(callKey(data));
  span.attributes[HANKWEAVE.sentinelErrorType] = str(data.errorType) ?? 'unknown';
  span.attributes['error.type'] = str(data.errorType) ?? 'unknown';
  span.status = {
    code: 'error',
    message: book.options.captureContent
      ? clip(str(data.message) ?? '')
      : (str(data.errorType) ?? ''),
  };
  book.end(span, t);
}

/** sentinel.unloaded: the sentinel's calls still open will get no answer; they end incomplete. */
export function sentinelUnloaded(book: SpanBook, data: Record<string, unknown>, t: number): void {
  for (const [key, span] of book.sentinelCalls) {
    if (key.startsWith(callPrefix(data))) {
      book.sentinelCalls.delete(key);
      book.end(span, t, true);
    }
  }
}

/** Ends every sentinel call still open, at the latest event seen, incomplete. */
export function endOpenSentinelCalls(book: SpanBook): void {
  for (const span of book.sentinelCalls.values()) book.end(span, undefined, true);
  book.sentinelCalls.clear();
}

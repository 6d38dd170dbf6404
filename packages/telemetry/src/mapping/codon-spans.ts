// Codon attempts (`codon <id>`): opened by the CodonStarted transition, ended by codon.completed
// (or by the next attempt, the run's end, or the end of the events).
import { GEN_AI, HANKWEAVE } from '../attributes.js';
import type { SpanAttributes } from '../span-record.js';
import { providerOf } from './provider.js';
import type { CodonState, SpanBook } from './span-book.js';
import { closeTurn } from './turn-spans.js';
import { addUsage, emptyUsage, usageAttributes, usageOf } from './usage.js';
import { clip, num, obj, str } from './values.js';

/** The codon states after which a codon runs no more. */
const TERMINAL = new Set(['completed', 'failed', 'skipped']);

/** The CodonStarted transition: ends the codon's previous attempt and opens this one's span. */
export function codonAttempt(
  book: SpanBook,
  codonId: string,
  runId: string | undefined,
  data: Record<string, unknown>,
  t: number,
): void {
  const previous = book.codons.get(codonId);
  if (previous) endCodon(book, previous, previous.lastEventMs, !previous.terminal);
  // A codon that reached its end without a codon.completed (a skip) ends when the next starts.
  for (const open of [...book.codons.values()]) {
    if (open.terminal) endCodon(book, open, open.lastEventMs, false);
  }
  const run = runId !== undefined ? book.runs.get(runId) : book.currentRun();
  const start = Date.parse(str(data.startTime) ?? '');
  const loop = obj(data.loopContext);
  const attributes: SpanAttributes = {
    [HANKWEAVE.codonId]: codonId,
    [HANKWEAVE.codonAttempt]: num(data.retryAttempt) ?? 1,
    ...(runId !== undefined ? { [HANKWEAVE.runId]: runId } : {}),
    ...(run?.branch !== undefined ? { [HANKWEAVE.runBranch]: run.branch } : {}),
  };
  if (str(loop.loopId) !== undefined) {
    attributes[HANKWEAVE.loopId] = str(loop.loopId) as string;
    attributes[HANKWEAVE.loopIteration] = num(loop.iteration) ?? 0;
    attributes[HANKWEAVE.loopCodonIndex] = num(loop.codonIndexInLoop) ?? 0;
  }
  const startMs = Number.isFinite(start) ? start : t;
  const span = book.open(`codon ${codonId}`, run?.span, startMs, attributes);
  book.codons.set(codonId, {
    codonId,
    runId,
    span,
    boundaryMs: undefined,
    lastEventMs: t,
    turn: undefined,
    turnCount: 0,
    modelId: undefined,
    sessionId: undefined,
    tools: new Map(),
    rigLines: [],
    rigLineCount: 0,
    firstRigOutputMs: undefined,
    filesChanged: 0,
    usage: emptyUsage(),
    cost: 0,
    finalSet: false,
    terminal: false,
  });
}

/** The CodonTransitioned transition: the agent's start, or the codon's end state and failure. */
export function codonTransitioned(
  codon: CodonState,
  data: Record<string, unknown>,
  t: number,
): void {
  const to = str(data.to);
  const metadata = obj(data.metadata);
  if (to === 'running') codon.boundaryMs = t;
  if (to === undefined || !TERMINAL.has(to)) return;
  codon.terminal = true;
  const attrs = codon.span.attributes;
  attrs[HANKWEAVE.codonStatus] = to;
  const reason = obj(metadata.failureReason);
  const during = str(metadata.failedDuring) ?? str(metadata.skippedDuring);
  if (during !== undefined) attrs[HANKWEAVE.failureDuring] = during;
  if (str(reason.type) !== undefined) {
    attrs[HANKWEAVE.failureType] = str(reason.type) as string;
    attrs[HANKWEAVE.failureRetriable] = reason.retriable === true;
    attrs[HANKWEAVE.failureInterrupted] = reason.interrupted === true;
    if (str(reason.message) !== undefined)
      attrs[HANKWEAVE.failureMessage] = clip(str(reason.message) as string);
  }
  if (to === 'failed') {
    codon.span.status = {
      code: 'error',
      message: str(reason.message) ?? str(reason.type) ?? 'codon failed',
    };
  }
}

/** The CodonFinalCostSet transition: the agent's own totals replace the summed ones. */
export function codonFinalCostSet(codon: CodonState, data: Record<string, unknown>): void {
  codon.cost = num(data.finalCost) ?? codon.cost;
  codon.usage = usageOf(obj(data.finalTokens));
  codon.finalSet = true;
}

/** codon.started: the agent's session began; names the codon, its session and its prompt. */
export function codonStarted(book: SpanBook, data: Record<string, unknown>): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  const attrs = codon.span.attributes;
  if (str(data.codonName) !== undefined) attrs[HANKWEAVE.codonName] = str(data.codonName) as string;
  const sessionId = str(data.sessionId);
  if (sessionId !== undefined && sessionId !== '') {
    codon.sessionId = sessionId;
    attrs[GEN_AI.conversationId] = sessionId;
  }
  const prompt = str(obj(data.promptMetadata).name);
  if (prompt !== undefined) attrs[HANKWEAVE.promptName] = prompt;
}

/** file.updated: counted on the codon. */
export function fileUpdated(book: SpanBook, data: Record<string, unknown>): void {
  const codon = book.codonOf(data);
  if (codon) codon.filesChanged++;
}

/** codon.extended: a span event on the codon. */
export function codonExtended(book: SpanBook, data: Record<string, unknown>, t: number): void {
  book.codonOf(data)?.span.events.push({
    name: 'codon.extended',
    timeMs: t,
    attributes: { 'hankweave.extension.number': num(data.extensionNumber) ?? 0 },
  });
}

/** codon.completed: the attempt's outcome; ends its span. */
export function codonCompleted(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  const attrs = codon.span.attributes;
  const success = data.success === true;
  attrs[HANKWEAVE.codonSuccess] = success;
  attrs[HANKWEAVE.codonDurationMs] = num(data.duration) ?? 0;
  attrs[HANKWEAVE.codonExitStatus] = str(obj(data.exitStatus).type) ?? 'unknown';
  if (!codon.finalSet && num(data.cost) !== undefined) codon.cost = num(data.cost) as number;
  if (data.failureIgnored === true) attrs[HANKWEAVE.failureIgnored] = true;
  const reason = obj(data.failureReason);
  if (str(reason.type) !== undefined && attrs[HANKWEAVE.failureType] === undefined) {
    attrs[HANKWEAVE.failureType] = str(reason.type) as string;
  }
  const budget = obj(data.budgetExceeded);
  if (str(budget.currency) !== undefined)
    attrs['hankweave.budget.exceeded'] = str(budget.currency) as string;
  if (success && codon.span.status.code === 'unset') codon.span.status = { code: 'ok' };
  endCodon(book, codon, t, false);
}

/**
 * Ends a codon attempt's span with its totals (its open request and tool calls first) and adds
 * them to its run's. With `atMs` undefined the codon ends at its last event, its open tool calls
 * at the latest event seen.
 */
export function endCodon(
  book: SpanBook,
  codon: CodonState,
  atMs: number | undefined,
  incomplete: boolean,
): void {
  if (book.codons.get(codon.codonId) === codon) book.codons.delete(codon.codonId);
  closeTurn(book, codon);
  for (const span of codon.tools.values()) book.end(span, atMs, true);
  codon.tools.clear();
  const attrs = codon.span.attributes;
  Object.assign(attrs, usageAttributes(codon.usage));
  attrs[HANKWEAVE.costUsd] = codon.cost;
  attrs[HANKWEAVE.codonFilesChanged] = codon.filesChanged;
  if (codon.modelId !== undefined) {
    attrs[GEN_AI.requestModel] = codon.modelId;
    attrs[GEN_AI.providerName] = providerOf(codon.modelId);
  }
  attrs[HANKWEAVE.codonStatus] ??= incomplete ? 'incomplete' : 'completed';
  const run = codon.runId !== undefined ? book.runs.get(codon.runId) : undefined;
  if (run) {
    run.cost += codon.cost;
    addUsage(run.usage, codon.usage);
  }
  book.end(codon.span, atMs ?? codon.lastEventMs, incomplete);
}

// Runs (`run`, a root span, or a rollback's child): opened by RunStarted, ended by RunCompleted,
// RunFailed or RunCrashed (or the next RunStarted, or the end of the events).
import { HANKWEAVE } from '../attributes.js';
import { endCodon } from './codon-spans.js';
import type { RunState, SpanBook } from './span-book.js';
import { emptyUsage, usageAttributes } from './usage.js';
import { flatAttributes, obj, str } from './values.js';

/** The RunStarted transition: ends any run still open and opens this one's span. */
export function runStarted(
  book: SpanBook,
  runId: string | undefined,
  data: Record<string, unknown>,
  t: number,
): void {
  for (const open of [...book.runs.values()]) endRun(book, open, open.lastEventMs, true);
  const id = runId ?? `run-${book.spansOpened}`;
  const start = Date.parse(str(data.startTime) ?? '');
  const branch = str(data.gitBranch);
  const extra = book.options.runAttributes;
  const span = book.open('run', book.rollback, Number.isFinite(start) ? start : t, {
    ...(typeof extra === 'function' ? extra() : extra),
    [HANKWEAVE.runId]: id,
    ...(branch !== undefined ? { [HANKWEAVE.runBranch]: branch } : {}),
    [HANKWEAVE.runStartingConditions]: str(obj(data.startingConditions).type) ?? 'unknown',
  });
  book.runs.set(id, {
    span,
    runId: id,
    branch,
    lastEventMs: t,
    cost: 0,
    sentinelCost: 0,
    usage: emptyUsage(),
  });
  book.currentRunId = id;
}

/** The RunCompleted and RunFailed transitions: the run's outcome; ends its span. */
export function runFinished(
  book: SpanBook,
  run: RunState,
  failed: boolean,
  data: Record<string, unknown>,
  t: number,
): void {
  const end = Date.parse(str(data.endTime) ?? '');
  if (failed) {
    run.span.status = { code: 'error', message: str(data.reason) ?? 'run failed' };
  } else run.span.status = { code: 'ok' };
  run.span.attributes[HANKWEAVE.runStatus] = failed ? 'failed' : 'completed';
  endRun(book, run, Number.isFinite(end) ? end : t, false);
}

/**
 * The RunCrashed transition, which crash detection records later: the crash's time is unknown,
 * so the run ends at its last event, marked incomplete.
 */
export function runCrashed(book: SpanBook, run: RunState): void {
  run.span.status = { code: 'error', message: 'crashed' };
  run.span.attributes[HANKWEAVE.runStatus] = 'crashed';
  endRun(book, run, run.lastEventMs, true);
}

/** loop.iteration.completed and loop.iteration.decision: span events on the current run. */
export function loopEvent(
  book: SpanBook,
  type: string,
  data: Record<string, unknown>,
  t: number,
): void {
  book.currentRun()?.span.events.push({
    name: type,
    timeMs: t,
    attributes: flatAttributes(data, [
      'loopId',
      'iteration',
      'codonId',
      'isFinal',
      'terminationReason',
      'decision',
    ]),
  });
}

/** Ends a run's span with its totals, after its codons' spans. */
export function endRun(book: SpanBook, run: RunState, atMs: number, incomplete: boolean): void {
  for (const codon of [...book.codons.values()]) {
    if (codon.runId === run.runId) endCodon(book, codon, codon.lastEventMs, !codon.terminal);
  }
  book.runs.delete(run.runId);
  if (book.currentRunId === run.runId) book.currentRunId = undefined;
  const attrs = run.span.attributes;
  Object.assign(attrs, usageAttributes(run.usage));
  attrs[HANKWEAVE.costUsd] = run.cost;
  attrs[HANKWEAVE.sentinelCostUsd] = run.sentinelCost;
  attrs[HANKWEAVE.runStatus] ??= 'incomplete';
  book.end(run.span, atMs, incomplete);
}

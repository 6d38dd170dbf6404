// Rollbacks (`rollback`): from rollback.started to rollback.completed, under the current run
// (a root span when none is running); a run that starts meanwhile goes under it.
import { HANKWEAVE } from '../attributes.js';
import type { SpanBook } from './span-book.js';
import { flatAttributes, num, obj, str } from './values.js';

/** rollback.started: opens the rollback's span (ending one still open, incomplete). */
export function rollbackStarted(book: SpanBook, data: Record<string, unknown>, t: number): void {
  if (book.rollback) book.end(book.rollback, t, true);
  const codons = Array.isArray(data.codonsToProcess)
    ? data.codonsToProcess.filter((item): item is string => typeof item === 'string')
    : [];
  book.rollback = book.open('rollback', book.currentRun()?.span, t, {
    [HANKWEAVE.rollbackFromRun]: str(data.fromRun) ?? '',
    ...(str(data.fromCodon)
      ? { [HANKWEAVE.rollbackFromCodon]: str(data.fromCodon) as string }
      : {}),
    ...(str(data.toCodon) ? { [HANKWEAVE.rollbackToCodon]: str(data.toCodon) as string } : {}),
    [HANKWEAVE.rollbackCheckpoint]: str(data.toCheckpoint) ?? '',
    [HANKWEAVE.rollbackCheckpointType]: str(data.checkpointType) ?? '',
    [HANKWEAVE.rollbackCodons]: codons,
  });
}

/**
 * rollback.progress, .codonCheckpoint, .rigCleanup and .archiveRestore: span events on the open
 * rollback.
 */
export function rollbackStep(
  book: SpanBook,
  type: string,
  data: Record<string, unknown>,
  t: number,
): void {
  book.rollback?.events.push({
    name: type,
    timeMs: t,
    attributes: flatAttributes(data, ['message', 'codonId', 'status', 'checkpoint']),
  });
}

/** rollback.completed: where the rollback landed; ends its span (opened now if not seen). */
export function rollbackCompleted(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const span =
    book.rollback ??
    book.open('rollback', book.currentRun()?.span, t, {
      [HANKWEAVE.rollbackFromRun]: str(data.fromRun) ?? '',
    });
  book.rollback = undefined;
  span.attributes[HANKWEAVE.rollbackToRun] = str(data.toRun) ?? '';
  span.attributes[HANKWEAVE.rollbackCheckpoint] = str(data.checkpoint) ?? '';
  span.attributes[HANKWEAVE.rollbackDebrisCount] = num(obj(data.debris).count) ?? 0;
  span.status = { code: 'ok' };
  book.end(span, t);
}

/** Ends the rollback still open, if any, at the latest event seen, incomplete. */
export function endOpenRollback(book: SpanBook): void {
  if (book.rollback) book.end(book.rollback, undefined, true);
  book.rollback = undefined;
}

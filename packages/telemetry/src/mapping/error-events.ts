import type { SpanBook } from './span-book.js';
import { clip, str } from './values.js';

/**
 * error: a `hankweave.error` span event on the codon it names, else the open rollback, else the
 * current run (dropped when none is open). A fatal error also fails the current run's span.
 */
export function errorEvent(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  const target = codon?.span ?? book.rollback ?? book.currentRun()?.span;
  if (!target) return;
  const severity = str(data.severity) ?? 'operation';
  target.events.push({
    name: 'hankweave.error',
    timeMs: t,
    attributes: {
      'hankweave.error.severity': severity,
      ...(str(data.code) !== undefined ? { 'hankweave.error.code': str(data.code) as string } : {}),
      ...(book.options.captureContent
        ? { 'hankweave.error.message': clip(str(data.message) ?? '') }
        : {}),
    },
  });
  if (data.fatal === true) {
    const run = book.currentRun();
    if (run) run.span.status = { code: 'error', message: str(data.code) ?? 'fatal error' };
  }
}

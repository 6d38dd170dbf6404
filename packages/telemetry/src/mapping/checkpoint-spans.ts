import { HANKWEAVE } from '../attributes.js';
import type { SpanRecord } from '../span-record.js';
import type { SpanBook } from './span-book.js';
import { str } from './values.js';

/**
 * The CheckpointCreated transition: a `checkpoint <type>` span from `startMs` to `t`. The journal
 * records only when a checkpoint was made, so the caller infers its start (the codon's previous
 * event) and the span says so.
 */
export function checkpointCreated(
  book: SpanBook,
  parent: SpanRecord | undefined,
  codonId: string | undefined,
  data: Record<string, unknown>,
  startMs: number,
  t: number,
): void {
  const type = str(data.checkpointType) ?? 'unknown';
  const span = book.open(`checkpoint ${type}`, parent, startMs, {
    [HANKWEAVE.checkpointType]: type,
    [HANKWEAVE.checkpointSha]: str(data.sha) ?? '',
    [HANKWEAVE.checkpointBranch]: str(data.branch) ?? '',
    ...(codonId !== undefined ? { [HANKWEAVE.codonId]: codonId } : {}),
    [HANKWEAVE.inferredStart]: true,
  });
  book.end(span, t);
}

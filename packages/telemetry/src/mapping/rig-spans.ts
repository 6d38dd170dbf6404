// The rig's setup (`rig setup`): one span when it completes or fails, with the output lines
// gathered before it as its events.
import { HANKWEAVE } from '../attributes.js';
import type { SpanAttributes } from '../span-record.js';
import type { SpanBook } from './span-book.js';
import { clip, num, str } from './values.js';

/** rig.output: one line of a setup command, kept until the setup's span opens. */
export function rigOutput(book: SpanBook, data: Record<string, unknown>, t: number): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  codon.rigLineCount++;
  codon.firstRigOutputMs ??= t;
  if (book.options.captureContent) {
    codon.rigLines.push({
      name: 'rig.output',
      timeMs: t,
      attributes: {
        'hankweave.rig.stream': str(data.stream) ?? '',
        'hankweave.rig.line': clip(str(data.line) ?? ''),
        [HANKWEAVE.rigCommandIndex]: num(data.commandIndex) ?? 0,
      },
    });
  }
}

/** rig.setup.completed and rig.setup.failed: the setup's span, from its start to `t`. */
export function rigSetup(
  book: SpanBook,
  type: 'rig.setup.completed' | 'rig.setup.failed',
  data: Record<string, unknown>,
  t: number,
): void {
  const codon = book.codonOf(data);
  if (!codon) return;
  // The setup's start: its duration back from the end, else its first output line.
  const duration = num(data.durationMs);
  const start = Math.max(
    codon.span.startMs,
    duration !== undefined ? t - duration : (codon.firstRigOutputMs ?? codon.span.startMs),
  );
  const attributes: SpanAttributes = {
    [HANKWEAVE.codonId]: codon.codonId,
    [HANKWEAVE.rigOutputLines]: codon.rigLineCount,
  };
  if (type === 'rig.setup.completed') {
    attributes[HANKWEAVE.rigType] = str(data.rigType) ?? '';
    attributes[HANKWEAVE.rigCommandCount] = num(data.commandCount) ?? 0;
  } else {
    attributes[HANKWEAVE.rigFailureType] = str(data.failureType) ?? 'other';
    if (num(data.exitCode) !== undefined)
      attributes[HANKWEAVE.rigExitCode] = num(data.exitCode) as number;
    if (num(data.commandIndex) !== undefined)
      attributes[HANKWEAVE.rigCommandIndex] = num(data.commandIndex) as number;
    attributes[HANKWEAVE.rigIgnored] = data.ignored === true;
  }
  const span = book.open('rig setup', codon.span, start, attributes);
  span.events.push(...codon.rigLines);
  codon.rigLines = [];
  if (type === 'rig.setup.failed') {
    span.status = {
      code: 'error',
      message: book.options.captureContent
        ? (str(data.message) ?? 'rig setup failed')
        : `rig setup failed (${str(data.failureType) ?? 'other'})`,
    };
  }
  book.end(span, t);
}

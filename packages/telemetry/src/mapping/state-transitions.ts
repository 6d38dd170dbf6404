// state.transition events: the state machine's steps, which open and end runs and codon
// attempts and record checkpoints.
import { checkpointCreated } from './checkpoint-spans.js';
import { codonAttempt, codonFinalCostSet, codonTransitioned } from './codon-spans.js';
import { runCrashed, runFinished, runStarted } from './run-spans.js';
import type { SpanBook } from './span-book.js';
import { closeTurn } from './turn-spans.js';
import { obj, str } from './values.js';

/** Maps one state.transition event (its `data.transition`: `{type, data}`). */
export function stateTransition(
  book: SpanBook,
  eventData: Record<string, unknown>,
  t: number,
): void {
  const transition = obj(eventData.transition);
  const data = obj(transition.data);
  const runId = str(data.runId);
  const run = runId !== undefined ? book.runs.get(runId) : undefined;
  if (run) run.lastEventMs = t;
  const codonId = str(data.codonId);
  const codon = codonId !== undefined ? book.codons.get(codonId) : undefined;
  // A checkpoint's commit runs from the codon's previous event to its transition.
  const previousMs = codon?.lastEventMs ?? t;
  if (codon && transition.type !== 'CodonStarted') {
    closeTurn(book, codon);
    codon.lastEventMs = t;
  }
  switch (transition.type) {
    case 'RunStarted':
      runStarted(book, runId, data, t);
      break;
    case 'RunCompleted':
    case 'RunFailed':
      if (run) runFinished(book, run, transition.type === 'RunFailed', data, t);
      break;
    case 'RunCrashed':
      if (run) runCrashed(book, run);
      break;
    case 'CodonStarted':
      if (codonId !== undefined) codonAttempt(book, codonId, runId, data, t);
      break;
    case 'CodonTransitioned':
      if (codon) codonTransitioned(codon, data, t);
      break;
    case 'CodonFinalCostSet':
      if (codon) codonFinalCostSet(codon, data);
      break;
    case 'CheckpointCreated': {
      const parent = codon?.span ?? run?.span ?? book.currentRun()?.span;
      checkpointCreated(book, parent, codonId, data, Math.min(previousMs, t), t);
      break;
    }
    default:
      break;
  }
  // Every codon transition moves the last-event mark (checkpoints start from it).
  if (codon) codon.lastEventMs = t;
}

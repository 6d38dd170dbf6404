import type { LoopVote } from './loop-state.js';

/** A plateau loop's `terminateOn`: how many agreeing iterations stop it, and its bounds. */
export interface PlateauRule {
  /** How many consecutive iterations must report a plateau (at least 1). */
  consensus: number;
  /** No plateau stop before this many iterations have run. */
  minIterations: number;
  /** Stop after this many iterations whatever they said. */
  maxIterations: number;
}

/** Whether a loop stops after an iteration, and why. */
export type PlateauVerdict =
  | { stop: false }
  | { stop: true; reason: 'plateau' | 'error' | 'iteration_limit' };

/**
 * Decides whether a plateau loop stops after `iteration` (1-based, the one that just ended),
 * from that loop's own votes only (a history's records, or {@link votesOf} of it filtered to the
 * execution thread): votes of later iterations are ignored, and several votes of one iteration
 * count once (the last in the array wins), so a decision recorded twice can never make up a
 * consensus on its own (a bug of the seed's system).
 *
 * - That iteration's decision is `error`: stop, `error`.
 * - `iteration >= minIterations` and each of the iterations `iteration - consensus + 1` ..
 *   `iteration` has a record with `plateau === true` (a missing record is not a plateau): stop,
 *   `plateau`.
 * - `iteration >= maxIterations`: stop, `iteration_limit`.
 */
export function plateauVerdict(
  history: readonly LoopVote[],
  rule: PlateauRule,
  iteration: number,
): PlateauVerdict {
  const byIteration = new Map<number, LoopVote>();
  for (const record of history) {
    if (record.iteration <= iteration) byIteration.set(record.iteration, record);
  }
  if (byIteration.get(iteration)?.decision === 'error') return { stop: true, reason: 'error' };
  // A consensus of 0 would stop on no evidence at all; one vote is the least that can count.
  const consensus = Math.max(1, Math.floor(rule.consensus));
  if (iteration >= rule.minIterations) {
    let agreeing = 0;
    for (let index = iteration; index > iteration - consensus && index >= 1; index--) {
      if (byIteration.get(index)?.plateau !== true) break;
      agreeing++;
    }
    if (agreeing === consensus) return { stop: true, reason: 'plateau' };
  }
  if (iteration >= rule.maxIterations) return { stop: true, reason: 'iteration_limit' };
  return { stop: false };
}

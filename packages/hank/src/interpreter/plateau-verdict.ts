import type { PlateauVote } from './outcomes.js';

/** A plateau vote of one execution, as the interpreter keeps it. */
export interface Vote {
  loopId: string;
  /** 1-based, as seed 004's loop history counts iterations. */
  iteration: number;
  decision: PlateauVote | 'missing';
  execution: number;
}

/**
 * A plateau loop's verdict after `iteration` (1-based): that iteration's newest vote is an error
 * → `error`; from `minIterations` on, the last `consensus` iterations each voted stop →
 * `plateau`; `maxIterations` reached → `iteration_limit`; else go on.
 */
export function plateauVerdict(
  votes: readonly Vote[],
  rule: { consensus: number; minIterations: number; maxIterations: number },
  iteration: number,
): 'error' | 'plateau' | 'iteration_limit' | undefined {
  const newest = new Map<number, Vote['decision']>();
  for (const vote of votes)
    if (vote.iteration <= iteration) newest.set(vote.iteration, vote.decision);
  if (newest.get(iteration) === 'error') return 'error';
  const consensus = Math.max(1, Math.floor(rule.consensus));
  if (iteration >= rule.minIterations) {
    let agreeing = 0;
    for (let at = iteration; at > iteration - consensus && at >= 1; at--) {
      if (newest.get(at) !== 'stop') break;
      agreeing++;
    }
    if (agreeing === consensus) return 'plateau';
  }
  return iteration >= rule.maxIterations ? 'iteration_limit' : undefined;
}

import { describe, expect, it } from 'vitest';
import { type LoopIterationRecord, type LoopStateFile, withIteration } from './loop-state.js';
import { type PlateauRule, type PlateauVerdict, plateauVerdict } from './plateau.js';

const vote = (iteration: number, plateau: boolean, decision?: LoopIterationRecord['decision']) => ({
  iteration,
  timestamp: '2025-01-10T10:00:00Z',
  plateau,
  reasoning: null,
  ...(decision ? { decision } : {}),
});
const yes = (iteration: number) => vote(iteration, true, 'stop');
const no = (iteration: number) => vote(iteration, false, 'continue');
const rule = (consensus: number, minIterations = 1, maxIterations = 10): PlateauRule => ({
  consensus,
  minIterations,
  maxIterations,
});
const go: PlateauVerdict = { stop: false };
const stop = (reason: 'plateau' | 'error' | 'iteration_limit'): PlateauVerdict => ({
  stop: true,
  reason,
});

describe('plateauVerdict()', () => {
  it.each<[string, LoopIterationRecord[], PlateauRule, number, PlateauVerdict]>([
    ['no history', [], rule(2), 1, go],
    ['one plateau vote, consensus 1', [yes(1)], rule(1), 1, stop('plateau')],
    ['one plateau vote, consensus 2', [yes(1)], rule(2), 1, go],
    [
      'two plateau votes in a row, consensus 2',
      [no(1), yes(2), yes(3)],
      rule(2),
      3,
      stop('plateau'),
    ],
    ['a lone plateau vote between continues', [no(1), yes(2), no(3)], rule(2), 3, go],
    ['a lone plateau vote between continues, at it', [no(1), no(2), yes(3)], rule(2), 3, go],
    ['consensus met before minIterations', [yes(1), yes(2)], rule(2, 3), 2, go],
    ['consensus met at minIterations', [yes(1), yes(2), yes(3)], rule(2, 3), 3, stop('plateau')],
    [
      'an error decision stops at once',
      [no(1), vote(2, false, 'error')],
      rule(2),
      2,
      stop('error'),
    ],
    ['an error before this iteration does not', [vote(1, false, 'error'), no(2)], rule(2), 2, go],
    [
      'the limit without consensus',
      [no(1), no(2), no(3)],
      rule(2, 1, 3),
      3,
      stop('iteration_limit'),
    ],
    ['plateau wins over the limit', [yes(1), yes(2), yes(3)], rule(2, 1, 3), 3, stop('plateau')],
    ['a missing record is not a plateau', [yes(1), yes(3)], rule(2), 3, go],
    ['a missing decision is not a plateau', [yes(1), vote(2, false, 'missing')], rule(2), 2, go],
    ['later records are ignored', [no(1), yes(2), yes(3)], rule(2), 1, go],
    ['consensus 0 counts as 1', [yes(1)], rule(0), 1, stop('plateau')],
    // The seed system's first bug: one decision counted twice met a consensus of 2.
    ['one stop recorded twice for one iteration', [no(1), yes(2), yes(2)], rule(2), 2, go],
    ['one stop recorded twice, first iteration', [yes(1), yes(1)], rule(2), 1, go],
    ['the last record of an iteration wins', [yes(1), yes(2), no(2)], rule(2), 2, go],
    [
      'the last record of an iteration wins, other way',
      [yes(1), no(2), yes(2)],
      rule(2),
      2,
      stop('plateau'),
    ],
  ])('%s', (_, history, plateauRule, iteration, expected) => {
    expect(plateauVerdict(history, plateauRule, iteration)).toEqual(expected);
  });

  // The seed system's second bug: decisions of an earlier loop or stage counted toward the next.
  it("never counts another loop's decisions: each verdict reads one history", () => {
    const earlierLoop = [yes(1), yes(2), yes(3)];
    const thisLoop = [no(1)];
    expect(plateauVerdict(earlierLoop, rule(2), 3)).toEqual(stop('plateau'));
    expect(plateauVerdict(thisLoop, rule(2), 1)).toEqual(go);
    expect(plateauVerdict([...thisLoop, yes(2)], rule(2), 2)).toEqual(go);
    expect(plateauVerdict([...thisLoop, yes(2), yes(3)], rule(2), 3)).toEqual(stop('plateau'));
  });

  it('does not count the votes of iterations undone by a rollback', () => {
    const ran: LoopStateFile = {
      session: 's',
      type: 'loop',
      started_at: '2025-01-10T10:00:00Z',
      status: 'running',
      iteration: 3,
      history: [no(1), yes(2), yes(3)],
    };
    // Rolled back to iteration 2, which now says continue: the old plateau votes are gone.
    const redone = withIteration(ran, no(2));
    expect(redone.history).toEqual([no(1), no(2)]);
    expect(plateauVerdict(redone.history, rule(2), 2)).toEqual(go);
    const next = withIteration(redone, yes(3));
    expect(plateauVerdict(next.history, rule(2), 3)).toEqual(go);
    expect(plateauVerdict(withIteration(next, yes(4)).history, rule(2), 4)).toEqual(
      stop('plateau'),
    );
  });
});

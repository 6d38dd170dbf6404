import type { LoopIterationRecord } from '@hankweave/sessions';
import { type HankConfig, hankConfigSchema } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { buildInitialPlan, expandAfterCodon, nextPlanEntry } from './planner.js';

const codon = (id: string) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: id,
});
const hank = (
  terminateOn: Record<string, unknown>,
  codons = [codon('edit'), codon('review')],
): HankConfig =>
  hankConfigSchema.parse({
    meta: { name: 'h', version: '1' },
    hank: [
      codon('survey'),
      { type: 'loop', id: 'improve', name: 'Improve', terminateOn, codons },
      codon('final'),
    ],
  });
const ids = (plan: { codonId: string }[]) => plan.map((entry) => entry.codonId);

describe('buildInitialPlan()', () => {
  it('keeps top-level ids and expands only iteration 0 of loops', () => {
    const plan = buildInitialPlan(hank({ type: 'iterationLimit', limit: 3 }));
    expect(ids(plan)).toEqual(['survey', 'edit#0', 'review#0', 'final']);
    expect(plan[2]?.loopContext).toEqual({ loopId: 'improve', iteration: 0, codonIndexInLoop: 1 });
    expect(plan[2]?.codon.id).toBe('review');
  });
});

describe('expandAfterCodon()', () => {
  it('inserts the next iteration after the last codon of an iteration, up to the limit', () => {
    const config = hank({ type: 'iterationLimit', limit: 2 });
    let plan = buildInitialPlan(config);
    expect(ids(expandAfterCodon(plan, config, { codonId: 'edit#0' }).plan)).toEqual(ids(plan));
    const first = expandAfterCodon(plan, config, { codonId: 'review#0' });
    plan = first.plan;
    expect(ids(plan)).toEqual(['survey', 'edit#0', 'review#0', 'edit#1', 'review#1', 'final']);
    expect(first.iterationEnded).toEqual({ loopId: 'improve', iteration: 0, isFinal: false });
    const second = expandAfterCodon(plan, config, { codonId: 'review#1' });
    expect(ids(second.plan)).toEqual(ids(plan));
    expect(second.iterationEnded).toMatchObject({
      iteration: 1,
      isFinal: true,
      terminationReason: 'iteration_limit',
    });
  });

  it('drops the rest of the iteration when the context is exceeded in a contextExceeded loop', () => {
    const config = hank({ type: 'contextExceeded' });
    const plan = buildInitialPlan(config);
    const result = expandAfterCodon(plan, config, { codonId: 'edit#0', contextExceeded: true });
    expect(ids(result.plan)).toEqual(['survey', 'edit#0', 'final']);
    expect(result.iterationEnded?.terminationReason).toBe('context_exceeded');
    // Without the signal it keeps iterating.
    expect(ids(expandAfterCodon(plan, config, { codonId: 'review#0' }).plan)).toContain('edit#1');
  });

  it('stops a plateau loop on consensus, never before minIterations, and at maxIterations', () => {
    const config = hank({ type: 'plateau', consensus: 2, minIterations: 3, maxIterations: 5 }, [
      codon('work'),
    ]);
    let plan = buildInitialPlan(config);
    const votes: LoopIterationRecord[] = [];
    const step = (iteration: number, plateau: boolean) => {
      votes.push({
        iteration: iteration + 1,
        timestamp: new Date(0).toISOString(),
        plateau,
        reasoning: null,
        decision: plateau ? 'stop' : 'continue',
      });
      const result = expandAfterCodon(plan, config, { codonId: `work#${iteration}` }, votes);
      plan = result.plan;
      return result.iterationEnded;
    };
    expect(step(0, true)?.isFinal).toBe(false);
    expect(step(1, true)?.isFinal).toBe(false); // consensus, but only 2 of minIterations 3
    expect(step(2, true)).toMatchObject({ isFinal: true, terminationReason: 'plateau' });
    plan = buildInitialPlan(config);
    votes.length = 0;
    for (let iteration = 0; iteration < 4; iteration++)
      expect(step(iteration, false)?.isFinal).toBe(false);
    expect(step(4, false)).toMatchObject({ isFinal: true, terminationReason: 'iteration_limit' });
  });

  it('ends a plateau loop at once, failed, on an error decision', () => {
    const config = hank({ type: 'plateau', consensus: 2, minIterations: 1, maxIterations: 5 }, [
      codon('work'),
    ]);
    const history: LoopIterationRecord[] = [
      { iteration: 1, timestamp: '', plateau: false, reasoning: 'tests broke', decision: 'error' },
    ];
    const result = expandAfterCodon(
      buildInitialPlan(config),
      config,
      { codonId: 'work#0' },
      history,
    );
    expect(result.iterationEnded).toMatchObject({
      isFinal: true,
      terminationReason: 'failure',
      decisionError: true,
    });
    expect(ids(result.plan)).not.toContain('work#1');
  });

  it('expands idempotently: a next iteration already in the plan is not inserted again', () => {
    const config = hank({ type: 'iterationLimit', limit: 4 });
    const once = expandAfterCodon(buildInitialPlan(config), config, { codonId: 'review#0' });
    const twice = expandAfterCodon(once.plan, config, { codonId: 'review#0' });
    expect(ids(twice.plan)).toEqual(ids(once.plan));
    expect(twice.iterationEnded).toMatchObject({ iteration: 0, isFinal: false });
    expect(ids(once.plan).filter((id) => id === 'edit#1')).toHaveLength(1);
  });

  it('ends the loop when a budget ran out', () => {
    const config = hank({ type: 'iterationLimit', limit: 5 });
    const result = expandAfterCodon(buildInitialPlan(config), config, {
      codonId: 'review#0',
      budgetExceeded: true,
    });
    expect(result.iterationEnded).toMatchObject({ isFinal: true });
    expect(ids(result.plan)).not.toContain('edit#1');
  });

  it('drops every later entry of a loop that ends, also iterations a rollback left behind', () => {
    const config = hank({ type: 'contextExceeded' });
    // The plan after iterations 0..2 ran; a rollback went back to edit#1, which now overflows.
    let plan = buildInitialPlan(config);
    for (const codonId of ['review#0', 'review#1']) {
      plan = expandAfterCodon(plan, config, { codonId }).plan;
    }
    expect(ids(plan)).toContain('review#2');
    const ended = expandAfterCodon(plan, config, { codonId: 'edit#1', contextExceeded: true });
    expect(ids(ended.plan)).toEqual(['survey', 'edit#0', 'review#0', 'edit#1', 'final']);
  });

  it('puts back the rest of an iteration that an earlier decision dropped', () => {
    const config = hank({ type: 'contextExceeded' });
    const dropped = expandAfterCodon(buildInitialPlan(config), config, {
      codonId: 'edit#0',
      contextExceeded: true,
    }).plan;
    expect(ids(dropped)).not.toContain('review#0');
    // After a rollback to survey, edit#0 runs again and this time stays within its context.
    const again = expandAfterCodon(dropped, config, { codonId: 'edit#0' });
    expect(ids(again.plan)).toEqual(['survey', 'edit#0', 'review#0', 'final']);
  });

  it('ends a contextExceeded loop whose iteration only failed', () => {
    const config = hank({ type: 'contextExceeded' });
    const result = expandAfterCodon(buildInitialPlan(config), config, {
      codonId: 'review#0',
      iterationFailed: true,
    });
    expect(result.iterationEnded).toMatchObject({ isFinal: true, terminationReason: 'failure' });
    expect(ids(result.plan)).not.toContain('edit#1');
  });

  it('leaves the plan alone after a codon outside loops', () => {
    const config = hank({ type: 'iterationLimit', limit: 2 });
    const plan = buildInitialPlan(config);
    expect(expandAfterCodon(plan, config, { codonId: 'survey' })).toEqual({ plan });
  });
});

describe('nextPlanEntry()', () => {
  it('returns the first entry for null and the following one otherwise', () => {
    const plan = buildInitialPlan(hank({ type: 'iterationLimit', limit: 2 }));
    expect(nextPlanEntry(plan, null)?.codonId).toBe('survey');
    expect(nextPlanEntry(plan, 'review#0')?.codonId).toBe('final');
    expect(nextPlanEntry(plan, 'final')).toBeUndefined();
  });
});

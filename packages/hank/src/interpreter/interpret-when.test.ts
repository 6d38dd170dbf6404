import { describe, expect, it } from 'vitest';
import { codon, failing, hankOf, ids, loop, run } from '../../test/builders.js';
import type { ConditionFacts } from '../conditions/evaluate-condition.js';
import type { AttemptOutcome, InterpreterInput } from './outcomes.js';

/** A world in which the listed files exist, each holding the given JSON. */
const world =
  (files: Record<string, unknown>): InterpreterInput['world'] =>
  (): Omit<ConditionFacts, 'statusOf'> => ({
    exists: (path) => path in files,
    jsonFile: (path) => (path in files ? { value: files[path] } : { absent: 'not found' }),
    sentinelOutput: () => ({ absent: 'no output yet' }),
  });

describe('interpret(): when', () => {
  const fixUp = hankOf([
    codon('test', { onFailure: 'ignore' }),
    codon('fix', { when: { codon: 'test', status: 'failed' } }),
    codon('report'),
  ]);

  it('skips a codon whose condition does not hold, spending nothing, and goes on', () => {
    const result = run(fixUp, {});
    expect(ids(result.executions)).toEqual([
      'test:completed',
      'fix:skipped:condition',
      'report:completed',
    ]);
    expect(result.executions[1]?.cost).toBe(0);
    expect(result.stops).toEqual(['completed']);
  });

  it('runs it when the condition holds (a failure that was ignored is still failed)', () => {
    const result = run(fixUp, { test: [failing] });
    expect(ids(result.executions)).toEqual(['test:failed', 'fix:completed', 'report:completed']);
  });

  it('reads files through the world: a JSON value, a missing file, not and any', () => {
    const hank = hankOf([
      codon('test'),
      codon('fix', { when: { json: 'results.json', pointer: '/failed', notEquals: 0 } }),
      codon('celebrate', {
        when: { any: [{ exists: 'DONE' }, { not: { exists: 'results.json' } }] },
      }),
    ]);
    expect(
      ids(run(hank, {}, { world: world({ 'results.json': { failed: 0 } }) }).executions),
    ).toEqual(['test:completed', 'fix:skipped:condition', 'celebrate:skipped:condition']);
    // No results at all: the value is absent, so notEquals holds and the fix-up runs.
    expect(ids(run(hank, {}, { world: world({}) }).executions)).toEqual([
      'test:completed',
      'fix:completed',
      'celebrate:completed',
    ]);
  });

  it('skips a whole loop when its condition does not hold, recording its first iteration', () => {
    const hank = hankOf([
      codon('test', { onFailure: 'ignore' }),
      loop('repair', { type: 'iterationLimit', limit: 3 }, [codon('fix'), codon('check')], {
        when: { codon: 'test', status: 'failed' },
      }),
      codon('report'),
    ]);
    expect(ids(run(hank, {}).executions)).toEqual([
      'test:completed',
      'fix#0:skipped:condition',
      'check#0:skipped:condition',
      'report:completed',
    ]);
    expect(run(hank, {}).loops).toEqual([]);
    expect(ids(run(hank, { test: [failing] }).executions)).toEqual([
      'test:failed',
      'fix#0:completed',
      'check#0:completed',
      'fix#1:completed',
      'check#1:completed',
      'fix#2:completed',
      'check#2:completed',
      'report:completed',
    ]);
  });

  it('evaluates a loop codon every iteration against the newest execution of the codon named', () => {
    // `fix` runs only while the newest `check` failed: iteration 0 has no check yet (not-run).
    const hank = hankOf([
      loop('repair', { type: 'iterationLimit', limit: 3 }, [
        codon('fix', { when: { codon: 'check', status: ['failed', 'not-run'] } }),
        codon('check', { onFailure: 'ignore' }),
      ]),
    ]);
    const result = run(hank, { 'check#0': [failing] });
    expect(ids(result.executions)).toEqual([
      'fix#0:completed',
      'check#0:failed',
      'fix#1:completed',
      'check#1:completed',
      'fix#2:skipped:condition',
      'check#2:completed',
    ]);
  });

  it('a contextExceeded loop whose iteration only skipped ends (it could never overflow)', () => {
    const hank = hankOf([
      codon('gate'),
      loop('grow', { type: 'contextExceeded' }, [
        codon('work', {
          continuationMode: 'continue-previous',
          when: { codon: 'gate', status: 'failed' },
        }),
      ]),
      codon('after'),
    ]);
    const result = run(hank, {});
    expect(ids(result.executions)).toEqual([
      'gate:completed',
      'work#0:skipped:condition',
      'after:completed',
    ]);
    expect(result.loops).toEqual([{ loopId: 'grow', iteration: 0, reason: 'failure' }]);
  });

  it('does not evaluate again for an automatic retry, but does on a resume', () => {
    const hank = hankOf([
      codon('gate'),
      codon('work', {
        onFailure: 'retry',
        when: { codon: 'gate', status: 'completed' },
      }),
    ]);
    const transient: AttemptOutcome = { sessions: [{ end: 'retriable-error', cost: 0.01 }] };
    let evaluations = 0;
    const result = run(
      hank,
      { work: [transient, transient] },
      {
        world: (codonId) => {
          if (codonId === 'work') evaluations++;
          return world({})?.(codonId) as Omit<ConditionFacts, 'statusOf'>;
        },
      },
    );
    expect(ids(result.executions)).toEqual([
      'gate:completed',
      'work:failed',
      'work:failed',
      'work:completed',
    ]);
    expect(evaluations).toBe(1);
  });

  it('a continue-previous codon after a skipped one fails: nothing to continue', () => {
    const hank = hankOf([
      codon('maybe', { when: { exists: 'never' } }),
      codon('then', { continuationMode: 'continue-previous' }),
    ]);
    const result = run(hank, {});
    expect(ids(result.executions)).toEqual(['maybe:skipped:condition', 'then:failed']);
    expect(result.executions[1]?.failure).toBe('no-session');
    expect(result.stops).toEqual(['failed']);
  });

  it('a rollback past a skip evaluates the condition again on the cut thread', () => {
    const hank = hankOf([
      codon('test', { onFailure: 'ignore' }),
      codon('fix', { when: { codon: 'test', status: 'failed' } }),
    ]);
    // Run 1: test completes, fix is skipped. Roll back to test (the only completed codon id):
    // test is not run again, fix is evaluated again and skipped again.
    const result = run(hank, {}, { steps: [{ kind: 'rollback', target: 0 }] });
    expect(ids(result.executions)).toEqual([
      'test:completed',
      'fix:skipped:condition',
      'fix:skipped:condition',
    ]);
    expect(result.stops).toEqual(['completed', 'completed']);
  });
});

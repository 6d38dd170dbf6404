import { describe, expect, it } from 'vitest';
import { codon, hankOf, ids, loop, run } from '../../test/builders.js';
import type { SessionOutcome } from './outcomes.js';

const ok = (cost = 0.01): SessionOutcome => ({ end: 'ok', cost });
const context: SessionOutcome = { end: 'context-exceeded', cost: 0.01 };
const transient: SessionOutcome = { end: 'retriable-error', cost: 0.01 };
const fatal: SessionOutcome = { end: 'fatal-error', cost: 0.01 };

describe('interpret()', () => {
  it('runs top-level codons in order and completes', () => {
    const result = run(hankOf([codon('a'), codon('b')]), {});
    expect(ids(result.executions)).toEqual(['a:completed', 'b:completed']);
    expect(result.stops).toEqual(['completed']);
  });

  describe('contextExceeded loops', () => {
    // The documented pattern: one codon that extends its session until the context is full.
    const exhaust = hankOf([
      codon('first'),
      loop('grow', { type: 'contextExceeded' }, [
        codon('work', {
          continuationMode: 'continue-previous',
          exhaustWithPrompt: 'Go on.',
          maxExtensions: 3,
        }),
      ]),
      codon('after'),
    ]);
    const twoCodons = hankOf([
      codon('first'),
      loop('grow', { type: 'contextExceeded' }, [
        codon('work', { continuationMode: 'continue-previous' }),
        codon('check', { continuationMode: 'continue-previous' }),
      ]),
      codon('after'),
    ]);

    it('ends after the iteration whose extension overflowed, and the hank goes on', () => {
      const result = run(
        exhaust,
        { 'work#1': [{ sessions: [ok(), ok(), context] }] },
        {
          steps: [{ kind: 'resume' }],
        },
      );
      expect(ids(result.executions)).toEqual([
        'first:completed',
        'work#0:completed',
        'work#1:completed',
        'after:completed',
      ]);
      // Without an overflow the codon ran 1 + maxExtensions sessions.
      expect(result.executions.map((execution) => execution.messages)).toEqual([1, 4, 3, 1]);
      expect(result.executions[2]?.contextExceeded).toBe(true);
      expect(result.loops).toEqual([{ loopId: 'grow', iteration: 1, reason: 'context_exceeded' }]);
      // Running the finished execution again runs nothing.
      expect(result.stops).toEqual(['completed', 'completed']);
    });

    it('ends when the first turn of a continued iteration overflows, dropping the rest of it', () => {
      const result = run(twoCodons, { 'work#2': [{ sessions: [context] }] });
      expect(ids(result.executions).slice(-2)).toEqual(['work#2:completed', 'after:completed']);
      expect(result.loops).toEqual([{ loopId: 'grow', iteration: 2, reason: 'context_exceeded' }]);
    });

    it('runs the dropped codons again after a rollback into the iteration, then ends anew', () => {
      const result = run(
        twoCodons,
        { 'work#1': [{ sessions: [context] }], 'check#2': [{ sessions: [context] }] },
        { steps: [{ kind: 'rollback', target: 1 }] },
      );
      // First run: first, work#0, check#0, work#1 (overflow: check#1 dropped), after. The
      // rollback targets work#0 (the second completed codon id): check#0 and work#1 run again
      // (work#1's second attempt is a plain success), check#1 is back in the plan.
      expect(ids(result.executions).slice(5)).toEqual([
        'check#0:completed',
        'work#1:completed',
        'check#1:completed',
        'work#2:completed',
        'check#2:completed',
        'after:completed',
      ]);
      expect(result.loops.map((ending) => ending.iteration)).toEqual([1, 2]);
      expect(result.stops).toEqual(['completed', 'completed']);
    });
  });

  it('ends a contextExceeded loop whose iteration only failed: it could never overflow', () => {
    const hank = hankOf([
      codon('first'),
      loop('grow', { type: 'contextExceeded' }, [
        codon('work', { continuationMode: 'continue-previous', onFailure: 'ignore' }),
      ]),
      codon('after'),
    ]);
    const result = run(hank, { 'work#1': [{ sessions: [fatal] }] });
    expect(ids(result.executions)).toEqual([
      'first:completed',
      'work#0:completed',
      'work#1:failed',
      'after:completed',
    ]);
    expect(result.loops).toEqual([{ loopId: 'grow', iteration: 1, reason: 'failure' }]);
  });

  it('fails a codon that exceeds the context outside a contextExceeded loop', () => {
    const result = run(hankOf([codon('a'), codon('b')]), { a: [{ sessions: [context] }] });
    expect(result.executions[0]).toMatchObject({ status: 'failed', failure: 'context-exceeded' });
    expect(result.stops).toEqual(['failed']);
  });

  describe('failure policies', () => {
    it('retries a retriable failure until maxAttempts', () => {
      const hank = hankOf([
        codon('a', { onFailure: 'retry', retryConfig: { maxAttempts: 3, delayMs: 0 } }),
        codon('b'),
      ]);
      const twice = run(hank, { a: [{ sessions: [transient] }, { sessions: [transient] }] });
      expect(ids(twice.executions)).toEqual(['a:failed', 'a:failed', 'a:completed', 'b:completed']);
      expect(twice.executions.map((execution) => execution.retryAttempt)).toEqual([1, 2, 3, 1]);
      const always = run(hank, {
        a: [{ sessions: [transient] }, { sessions: [transient] }, { sessions: [transient] }],
      });
      expect(always.stops).toEqual(['failed']);
      expect(always.executions).toHaveLength(3);
    });

    it('does not retry a fatal failure', () => {
      const hank = hankOf([codon('a', { onFailure: 'retry' })]);
      expect(run(hank, { a: [{ sessions: [fatal] }] }).executions).toHaveLength(1);
    });

    it('ignores a failure, and a resume never runs the ignored codon again', () => {
      const hank = hankOf([codon('a'), codon('b', { onFailure: 'ignore' }), codon('c')]);
      const result = run(
        hank,
        { b: [{ sessions: [fatal] }], c: [{ sessions: [fatal] }] },
        {
          steps: [{ kind: 'resume' }],
        },
      );
      expect(ids(result.executions)).toEqual([
        'a:completed',
        'b:failed',
        'c:failed',
        'c:completed',
      ]);
      expect(result.stops).toEqual(['failed', 'completed']);
    });

    it('resumes an interrupted codon with the retry attempt it had reached', () => {
      const hank = hankOf([
        codon('a', { onFailure: 'retry', retryConfig: { maxAttempts: 2, delayMs: 0 } }),
      ]);
      const result = run(
        hank,
        { a: [{ sessions: [transient] }, { stoppedBy: 'interrupt' }, { sessions: [transient] }] },
        {
          steps: [{ kind: 'resume' }],
        },
      );
      expect(result.executions.map((execution) => execution.retryAttempt)).toEqual([1, 2, 2]);
      expect(result.stops).toEqual(['interrupted', 'failed']);
    });
  });

  it('fails a continue-previous codon whose predecessor left no session, without an attempt', () => {
    const hank = hankOf([
      codon('a', { onFailure: 'ignore' }),
      codon('b', { continuationMode: 'continue-previous' }),
    ]);
    const result = run(hank, { a: [{ sessions: [fatal] }], b: [{ sessions: [fatal] }] });
    // b's outcome (a fatal error) never plays: no agent starts.
    expect(result.executions[1]).toMatchObject({ failure: 'no-session', cost: 0, attempt: 0 });
  });

  describe('budgets', () => {
    it('stops a codon at its own limit and the hank at its shared limit', () => {
      const hank = hankOf([codon('a', { budget: { maxDollars: 0.015 } }), codon('b'), codon('c')], {
        overrides: { budget: { maxDollars: 0.035 } },
      });
      const result = run(hank, {
        a: [{ sessions: [ok(0.02)] }],
        b: [{ sessions: [ok(0.02)] }],
      });
      expect(result.executions[0]).toMatchObject({ status: 'completed', budgetExceeded: true });
      // b may spend 0.015 of what is left: it is stopped too; c finds nothing left.
      expect(result.executions[1]).toMatchObject({ status: 'completed', budgetExceeded: true });
      expect(result.stops).toEqual(['budget-exceeded']);
    });

    it('treats float noise left of a spent budget as spent, however the costs were rounded', () => {
      // proportional-strict over 0.027: each child's allocation is 0.009; a and b count 0.009 and
      // 0.018 (or 0.018000000000000002: 0.006 × 3), which leaves c ±3.5e-18, not a codon's worth.
      for (const bCost of [0.018, 0.006 * 3]) {
        const hank = hankOf([codon('a'), codon('b'), codon('c')], {
          overrides: { budget: { maxDollars: 0.027, allocation: 'proportional-strict' } },
        });
        const result = run(hank, {
          a: [{ sessions: [ok(0.006)] }],
          b: [{ sessions: [ok(bCost)] }],
        });
        expect(ids(result.executions)).toEqual(['a:completed', 'b:completed']);
        expect(result.stops).toEqual(['budget-exceeded']);
      }
    });

    it('spending a limit by float noise only does not pass it', () => {
      // 0.006 × 3 is 0.018000000000000002: the session spent its $0.018, it did not pass it, so
      // its own end (a fatal error) is what happened.
      const hank = hankOf([codon('a', { budget: { maxDollars: 0.018, onExceeded: 'fail' } })]);
      const result = run(hank, { a: [{ sessions: [{ end: 'fatal-error', cost: 0.006 * 3 }] }] });
      expect(result.executions[0]).toMatchObject({ status: 'failed', failure: 'fatal-error' });
      expect(result.executions[0]?.budgetExceeded).toBeUndefined();
    });

    it('ends a loop whose budget is spent and goes on after it', () => {
      const hank = hankOf([
        loop('l', { type: 'iterationLimit', limit: 5 }, [codon('x')], {
          budget: { maxDollars: 0.025 },
        }),
        codon('after'),
      ]);
      const result = run(hank, {});
      expect(ids(result.executions)).toEqual([
        'x#0:completed',
        'x#1:completed',
        'x#2:completed',
        'after:completed',
      ]);
      expect(result.executions[2]?.budgetExceeded).toBe(true);
      expect(result.loops).toEqual([{ loopId: 'l', iteration: 2, reason: 'failure' }]);
    });
  });

  it('fails at a loop whose spent budget says fail, and a resume meets it again', () => {
    const hank = hankOf([
      loop('l', { type: 'iterationLimit', limit: 5 }, [codon('x')], {
        budget: { maxDollars: 0.015, onExceeded: 'fail' },
      }),
      codon('after'),
    ]);
    const result = run(hank, {}, { steps: [{ kind: 'resume' }] });
    // x#1 crosses the loop's budget: it fails (budget) and the run fails; the resume finds the
    // budget spent at x#1 and fails again, without running `after`.
    expect(ids(result.executions)).toEqual(['x#0:completed', 'x#1:failed']);
    expect(result.stops).toEqual(['failed', 'budget-failed']);
  });

  describe('plateau loops', () => {
    const plateau = (extra = {}) =>
      hankOf([
        loop(
          'p',
          { type: 'plateau', consensus: 2, minIterations: 1, maxIterations: 5 },
          [codon('x'), codon('y')],
          extra,
        ),
        codon('after'),
      ]);

    it('stops on a consensus of votes', () => {
      const result = run(plateau(), { 'y#0': [{ vote: 'stop' }], 'y#1': [{ vote: 'stop' }] });
      expect(result.loops).toEqual([{ loopId: 'p', iteration: 1, reason: 'plateau' }]);
      expect(ids(result.executions).at(-1)).toBe('after:completed');
    });

    it('fails on an error vote, and the resume runs the iteration again', () => {
      const result = run(
        plateau(),
        { 'y#1': [{ vote: 'error' }, { vote: 'stop' }], 'y#0': [{ vote: 'stop' }] },
        {
          steps: [{ kind: 'resume' }],
        },
      );
      expect(ids(result.executions)).toEqual([
        'x#0:completed',
        'y#0:completed',
        'x#1:completed',
        'y#1:completed',
        'x#1:completed',
        'y#1:completed',
        'after:completed',
      ]);
      expect(result.stops).toEqual(['failed', 'completed']);
      expect(result.loops.map((ending) => ending.reason)).toEqual(['failure', 'plateau']);
    });
  });

  it('guards against a loop that never ends', () => {
    const hank = hankOf([
      codon('a'),
      loop('l', { type: 'contextExceeded' }, [
        codon('x', { continuationMode: 'continue-previous' }),
      ]),
    ]);
    expect(() => run(hank, {}, { maxExecutions: 50 })).toThrow(/did not end within 50/);
  });
});

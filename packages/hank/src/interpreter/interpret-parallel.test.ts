import { describe, expect, it } from 'vitest';
import { block, codon, failing, hankOf, ids, run } from '../../test/builders.js';
import type { AttemptOutcome, InterpreterInput } from './outcomes.js';

const retriable: AttemptOutcome = { sessions: [{ end: 'retriable-error', cost: 0.02 }] };
const costing = (cost: number): AttemptOutcome => ({ sessions: [{ end: 'ok', cost }] });

/** The ready branch after the one that ran last, by id (the tests name branches in id order). */
const roundRobin = (): InterpreterInput['schedule'] => {
  let last: string | undefined;
  return (_block, ready) => {
    const next = ready.find((id) => last === undefined || id > last) ?? (ready[0] as string);
    last = next;
    return next;
  };
};

/** The branches in the order given while it lasts, then the first ready one. */
const scripted =
  (order: string[]): InterpreterInput['schedule'] =>
  (_block, ready) => {
    const next = order.shift();
    return next !== undefined && ready.includes(next) ? next : (ready[0] as string);
  };

const three = hankOf([
  codon('plan'),
  block('build', {
    api: [codon('api1'), codon('api2')],
    ui: [codon('ui1'), codon('ui2')],
    docs: [codon('docs1')],
  }),
  codon('ship'),
]);

describe('interpret(): parallel blocks', () => {
  it('runs three branches branch by branch by default, merges clean, and goes on', () => {
    const result = run(three, {});
    expect(ids(result.executions)).toEqual([
      'plan:completed',
      'api1:completed',
      'api2:completed',
      'ui1:completed',
      'ui2:completed',
      'docs1:completed',
      'ship:completed',
    ]);
    expect(result.executions[1]?.branch).toEqual({ blockId: 'build', branchId: 'api' });
    expect(result.executions[0]?.branch).toBeUndefined();
    expect(result.merges).toEqual([
      { blockId: 'build', result: 'clean', session: 0, afterExecutions: 6 },
    ]);
    expect(result.stops).toEqual(['completed']);
  });

  it('interleaves the branches as the schedule says, each in its own order', () => {
    const schedule = scripted(['api', 'ui', 'docs', 'api', 'ui']);
    const result = run(three, {}, { schedule });
    expect(ids(result.executions)).toEqual([
      'plan:completed',
      'api1:completed',
      'ui1:completed',
      'docs1:completed',
      'api2:completed',
      'ui2:completed',
      'ship:completed',
    ]);
  });

  it('treats a schedule answer that is not ready as the first ready branch', () => {
    const result = run(three, {}, { schedule: () => 'nope' });
    expect(ids(result.executions).slice(1, 3)).toEqual(['api1:completed', 'api2:completed']);
  });

  it('stops every branch and the run when a branch fails; a resume re-runs only that branch', () => {
    const result = run(
      three,
      { ui1: [failing] },
      { schedule: scripted(['docs', 'api', 'ui']), steps: [{ kind: 'resume' }] },
    );
    expect(ids(result.executions)).toEqual([
      'plan:completed',
      'docs1:completed',
      'api1:completed',
      'ui1:failed',
      // The resume: docs is done and api1 is not re-run; api2 had not started; ui1 runs again.
      'api2:completed',
      'ui1:completed',
      'ui2:completed',
      'ship:completed',
    ]);
    expect(result.stops).toEqual(['failed', 'completed']);
    expect(result.merges).toHaveLength(1);
  });

  it('resumes a block an interrupt cut short without re-running finished branches', () => {
    const result = run(
      three,
      { ui2: [{ stoppedBy: 'interrupt' }] },
      { steps: [{ kind: 'resume' }] },
    );
    expect(ids(result.executions)).toEqual([
      'plan:completed',
      'api1:completed',
      'api2:completed',
      'ui1:completed',
      'ui2:failed',
      'ui2:completed',
      'docs1:completed',
      'ship:completed',
    ]);
    expect(result.stops).toEqual(['interrupted', 'completed']);
    // The interrupted attempt goes on in the same retry series.
    expect(result.executions[5]?.retryAttempt).toBe(1);
  });

  it('retries and ignores inside a branch as at the top level', () => {
    const hank = hankOf([
      block('b', {
        x: [codon('x1', { onFailure: 'retry', retryConfig: { maxAttempts: 2 } }), codon('x2')],
        y: [codon('y1', { onFailure: 'ignore' }), codon('y2')],
      }),
    ]);
    const result = run(hank, { x1: [retriable], y1: [failing] }, { schedule: roundRobin() });
    expect(ids(result.executions)).toEqual([
      'x1:failed',
      'y1:failed',
      'x1:completed',
      'y2:completed',
      'x2:completed',
    ]);
    expect(result.executions[2]?.retryAttempt).toBe(2);
    expect(result.stops).toEqual(['completed']);
  });

  describe('budgets', () => {
    it("stops every branch when the hank's budget is spent", () => {
      const hank = hankOf(
        [block('b', { x: [codon('x1'), codon('x2')], y: [codon('y1'), codon('y2')] })],
        { overrides: { budget: { maxDollars: 1 } } },
      );
      const result = run(
        hank,
        { x1: [costing(0.6)], y1: [costing(0.6)] },
        { schedule: roundRobin() },
      );
      expect(ids(result.executions)).toEqual(['x1:completed', 'y1:completed']);
      expect(result.stops).toEqual(['budget-exceeded']);
      expect(result.merges).toEqual([]);
    });

    it('ends unfinished branches on a spent block budget (complete) and merges what they did', () => {
      const hank = hankOf([
        block(
          'b',
          { x: [codon('x1'), codon('x2')], y: [codon('y1'), codon('y2')] },
          { budget: { maxDollars: 1, onExceeded: 'complete' } },
        ),
        codon('after'),
      ]);
      const result = run(
        hank,
        { x1: [costing(0.6)], y1: [costing(0.6)] },
        { schedule: roundRobin() },
      );
      expect(ids(result.executions)).toEqual(['x1:completed', 'y1:completed', 'after:completed']);
      expect(result.merges).toEqual([
        { blockId: 'b', result: 'clean', session: 0, afterExecutions: 2, branchesCut: ['x', 'y'] },
      ]);
      expect(result.stops).toEqual(['completed']);
    });

    it('stops the run budget-failed on a spent block budget with fail, and again on resume', () => {
      const hank = hankOf([
        block(
          'b',
          { x: [codon('x1'), codon('x2')], y: [codon('y1')] },
          { budget: { maxDollars: 1, onExceeded: 'fail' } },
        ),
      ]);
      const result = run(hank, { x1: [costing(1)] }, { steps: [{ kind: 'resume' }] });
      expect(ids(result.executions)).toEqual(['x1:completed']);
      expect(result.stops).toEqual(['budget-failed', 'budget-failed']);
    });
  });

  describe('merge conflicts', () => {
    const withMerge = (onConflict: unknown) =>
      hankOf([
        block('b', { x: [codon('x1')], y: [codon('y1')] }, { merge: { onConflict } }),
        codon('after'),
      ]);
    const conflicts = (...answers: boolean[]) => ({
      mergeConflicts: (_block: string, attempt: number) => answers[attempt] ?? false,
    });

    it('stops the run with fail; a resume merges again without re-running the branches', () => {
      const result = run(
        withMerge('fail'),
        {},
        {
          ...conflicts(true, false),
          steps: [{ kind: 'resume' }],
        },
      );
      expect(ids(result.executions)).toEqual(['x1:completed', 'y1:completed', 'after:completed']);
      expect(result.merges.map((merge) => merge.result)).toEqual(['conflict', 'clean']);
      expect(result.stops).toEqual(['failed', 'completed']);
    });

    it('settles the conflict by branch order with ordered', () => {
      const result = run(withMerge('ordered'), {}, conflicts(true));
      expect(result.merges.map((merge) => merge.result)).toEqual(['ordered']);
      expect(result.stops).toEqual(['completed']);
    });

    it('runs the resolver as <block>.resolve after the conflicted merge', () => {
      const result = run(withMerge({ resolver: codon('fix') }), {}, conflicts(true));
      expect(ids(result.executions)).toEqual([
        'x1:completed',
        'y1:completed',
        'b.resolve:completed',
        'after:completed',
      ]);
      expect(result.merges.map((merge) => merge.result)).toEqual(['resolved']);
    });

    it('stops the run when the resolver fails (abort); a resume merges and resolves again', () => {
      const result = run(
        withMerge({ resolver: codon('fix') }),
        { 'b.resolve': [failing] },
        {
          ...conflicts(true, true),
          steps: [{ kind: 'resume' }],
        },
      );
      expect(ids(result.executions)).toEqual([
        'x1:completed',
        'y1:completed',
        'b.resolve:failed',
        'b.resolve:completed',
        'after:completed',
      ]);
      expect(result.merges.map((merge) => merge.result)).toEqual(['conflict', 'resolved']);
      expect(result.stops).toEqual(['failed', 'completed']);
    });

    it('falls back to the ordered merge when a resolver with ignore fails', () => {
      const result = run(
        withMerge({ resolver: codon('fix', { onFailure: 'ignore' }) }),
        { 'b.resolve': [failing] },
        conflicts(true),
      );
      expect(result.merges.map((merge) => merge.result)).toEqual(['ordered']);
      expect(result.stops).toEqual(['completed']);
    });
  });

  describe('conditions', () => {
    it("skips every codon of the block's first pass when its condition does not hold", () => {
      const hank = hankOf([
        codon('plan', { onFailure: 'ignore' }),
        block(
          'b',
          {
            x: [codon('x1')],
            y: [
              {
                type: 'loop',
                id: 'l',
                name: 'l',
                terminateOn: { type: 'iterationLimit', limit: 2 },
                codons: [codon('l1'), codon('l2')],
              },
            ],
          },
          { when: { codon: 'plan', status: 'completed' } },
        ),
        codon('after', { when: { codon: 'x1', status: 'not-run' } }),
      ]);
      const result = run(hank, { plan: [failing] });
      expect(ids(result.executions)).toEqual([
        'plan:failed',
        'x1:skipped:condition',
        'l1#0:skipped:condition',
        'l2#0:skipped:condition',
        'after:skipped:condition',
      ]);
      expect(result.merges).toEqual([]);
      expect(result.stops).toEqual(['completed']);
    });

    it("reads its own branch's earlier codon, never a sibling's", () => {
      const hank = hankOf([
        block('b', {
          x: [
            codon('x1', { onFailure: 'ignore' }),
            codon('x2', { when: { codon: 'x1', status: 'failed' } }),
          ],
          y: [codon('y1')],
        }),
      ]);
      const result = run(hank, { x1: [failing] }, { schedule: roundRobin() });
      expect(ids(result.executions)).toEqual(['x1:failed', 'y1:completed', 'x2:completed']);
      const clean = run(hank, {}, { schedule: roundRobin() });
      expect(ids(clean.executions)).toEqual([
        'x1:completed',
        'y1:completed',
        'x2:skipped:condition',
      ]);
    });
  });

  it('expands loops inside a branch as at the top level', () => {
    const hank = hankOf([
      block('b', {
        x: [
          {
            type: 'loop',
            id: 'l',
            name: 'l',
            terminateOn: { type: 'iterationLimit', limit: 2 },
            codons: [codon('l1'), codon('l2')],
          },
          codon('x2'),
        ],
        y: [codon('y1')],
      }),
    ]);
    const result = run(hank, {}, { schedule: roundRobin() });
    expect(ids(result.executions)).toEqual([
      'l1#0:completed',
      'y1:completed',
      'l2#0:completed',
      'l1#1:completed',
      'l2#1:completed',
      'x2:completed',
    ]);
    expect(result.loops).toEqual([{ loopId: 'l', iteration: 1, reason: 'iteration_limit' }]);
  });

  it('skips a branch loop whose condition does not hold, and ends one whose budget is spent', () => {
    const loopOf = (id: string, codons: unknown[], extra = {}) => ({
      type: 'loop',
      id,
      name: id,
      terminateOn: { type: 'iterationLimit', limit: 3 },
      codons,
      ...extra,
    });
    const hank = hankOf([
      block('b', {
        x: [
          codon('x1', { onFailure: 'ignore' }),
          loopOf('skipped', [codon('s1')], { when: { codon: 'x1', status: 'failed' } }),
          codon('x2'),
        ],
        y: [loopOf('spent', [codon('p1')], { budget: { maxDollars: 0.5 } }), codon('y2')],
      }),
    ]);
    const result = run(
      hank,
      { 'p1#0': [costing(0.3)], 'p1#1': [costing(0.3)] },
      {
        schedule: roundRobin(),
      },
    );
    expect(ids(result.executions)).toEqual([
      'x1:completed',
      'p1#0:completed',
      's1#0:skipped:condition',
      'p1#1:completed',
      'x2:completed',
      'y2:completed',
    ]);
    // p1#1 passes what the loop had left: the runtime stops it, and the loop ends after it.
    expect(result.loops).toEqual([{ loopId: 'spent', iteration: 1, reason: 'failure' }]);
    expect(result.stops).toEqual(['completed']);
  });

  it('needs the previous codon of the same branch to continue a session', () => {
    const hank = hankOf([
      block('b', {
        x: [
          codon('x1', { onFailure: 'ignore' }),
          codon('x2', { continuationMode: 'continue-previous' }),
        ],
        y: [codon('y1')],
      }),
    ]);
    const result = run(hank, { x1: [failing] });
    expect(result.executions[1]).toMatchObject({ codonId: 'x2', failure: 'no-session' });
    expect(result.stops).toEqual(['failed']);
  });

  describe('rollback', () => {
    it('into a branch re-runs that branch from there, keeps its siblings, and merges again', () => {
      // Completed codon ids in thread order: plan, api1, api2, ui1, ui2, docs1, ship; 1 → api1.
      const result = run(three, {}, { steps: [{ kind: 'rollback', target: 1 }] });
      expect(ids(result.executions).slice(7)).toEqual(['api2:completed', 'ship:completed']);
      expect(result.merges.map((merge) => merge.session)).toEqual([0, 1]);
    });

    it('before the block re-runs every branch', () => {
      const result = run(three, {}, { steps: [{ kind: 'rollback', target: 0 }] });
      expect(ids(result.executions).slice(7)).toEqual([
        'api1:completed',
        'api2:completed',
        'ui1:completed',
        'ui2:completed',
        'docs1:completed',
        'ship:completed',
      ]);
    });
  });
});

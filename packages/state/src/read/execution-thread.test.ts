import { emptyState, type HankweaveState, type StateTransition } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { twoRunState } from '../../test/fixture-state.js';
import { replayTransitions } from '../reducer/reduce-state.js';
import { codonLifecycle, METADATA_FOR, makeTransition as t } from '../testing/transitions.js';
import { executionThread } from './execution-thread.js';
import { runTree } from './run-tree.js';

const plan = ['a', 'b', 'c', 'd'].map((codonId) => ({
  codon: { id: codonId, name: codonId },
  codonId,
}));
const continuation = (runId: string, afterCodon: string | null, checkpointSha = 'done0001') =>
  ({
    type: 'continuation',
    source: { runId, afterCodon, checkpointSha },
    reason: 'rollback',
  }) as const;
const build = (...transitions: StateTransition[]): HankweaveState =>
  replayTransitions(emptyState(), [
    { type: 'ExecutionPlanUpdated', data: { executionPlan: plan } },
    ...transitions,
  ]);
const ids = (state: HankweaveState, runId?: string) =>
  executionThread(state, runId).codons.map((entry) => `${entry.runId}:${entry.codon.codonId}`);

describe('executionThread()', () => {
  it('includes a parent run up to afterCodon and the target run whole, newest first', () => {
    const thread = executionThread(twoRunState());
    expect(thread.codons.map((entry) => `${entry.runId}:${entry.codon.codonId}`)).toEqual([
      'r2:review#0',
      'r1:lint',
      'r1:research',
    ]);
    expect(thread).toMatchObject({
      runId: 'r2',
      runIds: ['r2', 'r1'],
      failed: false,
      hasRunningCodon: true,
      nextCodonId: 'review#1',
    });
    expect(thread.codons.map((entry) => [entry.globalIndex, entry.runIndex])).toEqual([
      [2, 1],
      [1, 0],
      [0, 0],
    ]);
  });

  it('includes none of the parent for afterCodon null, and starts at the first plan entry', () => {
    const state = build(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'completed'),
      t.runCompleted('r1'),
      t.runStarted('r2', { startingConditions: continuation('r1', null, '') }),
    );
    expect(ids(state)).toEqual([]);
    expect(executionThread(state).nextCodonId).toBe('a');
  });

  it('includes none of any ancestor when a continuation of a continuation goes back to the start', () => {
    // r2 continued r1 after a; r3 rolled r2 back to the start: r1's a is not on r3's thread.
    const state = build(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'completed'),
      ...codonLifecycle('r1', 'b', 'failed'),
      t.runFailed('r1'),
      t.runStarted('r2', { startingConditions: continuation('r1', 'a') }),
      ...codonLifecycle('r2', 'b', 'completed'),
      t.runFailed('r2'),
      t.runStarted('r3', { startingConditions: continuation('r2', null, '') }),
    );
    expect(ids(state)).toEqual([]);
    expect(executionThread(state).nextCodonId).toBe('a');
  });

  it('excludes the codon a rig-setup continuation restarts, which runs next', () => {
    const state = build(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'completed'),
      ...codonLifecycle('r1', 'b', 'failed'),
      t.runFailed('r1'),
      t.runStarted('r2', {
        startingConditions: continuation('r1', 'b', METADATA_FOR.starting?.checkpointSha),
      }),
    );
    expect(ids(state)).toEqual(['r1:a']);
    expect(executionThread(state).nextCodonId).toBe('b');
  });

  it('carries afterCodon up to the ancestor that ran that codon', () => {
    const state = build(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'completed'),
      ...codonLifecycle('r1', 'b', 'completed'),
      t.runCompleted('r1'),
      t.runStarted('r2', { startingConditions: continuation('r1', 'b') }),
      ...codonLifecycle('r2', 'c', 'completed'),
      t.runCompleted('r2'),
      t.runStarted('r3', { startingConditions: continuation('r2', 'a') }),
    );
    expect(ids(state)).toEqual(['r1:a']);
    expect(executionThread(state).nextCodonId).toBe('b');
    expect(ids(state, 'r2')).toEqual(['r2:c', 'r1:b', 'r1:a']);
  });

  it('offers nothing next after a failed or crashed run', () => {
    const state = build(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'running'),
      t.runCrashed('r1'),
    );
    expect(executionThread(state)).toMatchObject({
      failed: true,
      nextCodonId: null,
      hasRunningCodon: false,
    });
  });

  it('starts a state without runs at the first plan entry, and ends after the last', () => {
    expect(executionThread(build())).toMatchObject({ runIds: [], codons: [], nextCodonId: 'a' });
    const done = build(
      t.runStarted('r1'),
      ...['a', 'b', 'c', 'd'].flatMap((id) => codonLifecycle('r1', id, 'completed')),
    );
    expect(executionThread(done).nextCodonId).toBeNull();
  });

  it('stops at a continuation cycle instead of looping', () => {
    const state = build(
      t.runStarted('r1', { startingConditions: continuation('r2', 'a') }),
      t.runStarted('r2', { startingConditions: continuation('r1', null) }),
    );
    expect(executionThread(state).runIds).toEqual(['r2', 'r1']);
  });
});

describe('executionThread() in a parallel block (issue 36)', () => {
  // Block p: branch x runs x1 then x2, branch y runs y1; then the merge (p) and d.
  const lane = (codonId: string, branchId?: string) => ({
    codon: { id: codonId, name: codonId },
    codonId,
    parallelContext: branchId
      ? { blockId: 'p', role: 'branch' as const, branchId }
      : { blockId: 'p', role: 'merge' as const },
  });
  const blockPlan = [
    { codon: { id: 'a', name: 'a' }, codonId: 'a' },
    lane('x1', 'x'),
    lane('x2', 'x'),
    lane('y1', 'y'),
    lane('p'),
    { codon: { id: 'd', name: 'd' }, codonId: 'd' },
  ];
  const inBlock = (...transitions: StateTransition[]): HankweaveState =>
    replayTransitions(emptyState(), [
      { type: 'ExecutionPlanUpdated', data: { executionPlan: blockPlan } },
      ...transitions,
    ]);
  const ranThrough = [
    t.runStarted('r1'),
    ...['a', 'x1', 'x2', 'y1', 'p', 'd'].flatMap((id) => codonLifecycle('r1', id, 'completed')),
    t.runCompleted('r1'),
  ];

  it('keeps the sibling branches after a rollback to a branch codon, and only them', () => {
    const state = inBlock(
      ...ranThrough,
      t.runStarted('r2', { startingConditions: continuation('r1', 'x1') }),
    );
    // x2 (its own branch), the merge and d are undone; y1 (the sibling) stays.
    expect(ids(state)).toEqual(['r1:y1', 'r1:x1', 'r1:a']);
  });

  it('continues from the thread, not from the run that holds the newest record', () => {
    // r2 rolled back to x1; r3 resumes after y1 (the thread's newest) from r2: x2 stays undone.
    // Resuming from r1 after y1 would bring x2 back: r1's own records run x1, x2, y1.
    const state = inBlock(
      ...ranThrough,
      t.runStarted('r2', { startingConditions: continuation('r1', 'x1') }),
      t.runCompleted('r2'),
      t.runStarted('r3', { startingConditions: continuation('r2', 'y1') }),
      ...codonLifecycle('r3', 'x2', 'completed'),
    );
    expect(ids(state)).toEqual(['r3:x2', 'r1:y1', 'r1:x1', 'r1:a']);
    expect(
      ids(
        inBlock(
          ...ranThrough,
          t.runStarted('r9', { startingConditions: continuation('r1', 'y1') }),
        ),
      ),
    ).toEqual(['r1:y1', 'r1:x2', 'r1:x1', 'r1:a']);
  });

  it('keeps the sibling records a resumed run began with, up to the merge', () => {
    // r1 crashed inside the block; r2 resumed and ran y1 and the merge; a rollback to x1 from
    // r2 keeps y1 (run r2) but not the merge.
    const state = inBlock(
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'completed'),
      ...codonLifecycle('r1', 'x1', 'completed'),
      t.runCrashed('r1'),
      t.runStarted('r2', { startingConditions: continuation('r1', 'x1') }),
      ...codonLifecycle('r2', 'y1', 'completed'),
      ...codonLifecycle('r2', 'x2', 'completed'),
      ...codonLifecycle('r2', 'p', 'completed'),
      t.runCompleted('r2'),
      t.runStarted('r3', { startingConditions: continuation('r2', 'x1') }),
    );
    expect(ids(state)).toEqual(['r2:y1', 'r1:x1', 'r1:a']);
  });

  it('is the plain prefix after a codon outside the block', () => {
    const state = inBlock(
      ...ranThrough,
      t.runStarted('r2', { startingConditions: continuation('r1', 'a') }),
    );
    expect(ids(state)).toEqual(['r1:a']);
  });
});

describe('runTree()', () => {
  it('hangs continuations under the run they continue, oldest first', () => {
    const state = build(
      t.runStarted('r1'),
      t.runCompleted('r1'),
      t.runStarted('r2', { startingConditions: continuation('r1', null) }),
      t.runCompleted('r2'),
      t.runStarted('r3', { startingConditions: continuation('r1', null) }),
      t.runCompleted('r3'),
      t.runStarted('r4', { startingConditions: continuation('r3', null) }),
      t.runCompleted('r4'),
      t.runStarted('lost', { startingConditions: continuation('gone', null) }),
    );
    const shape = (nodes: ReturnType<typeof runTree>): unknown =>
      nodes.map((node) => ({ [node.run.runId]: shape(node.children) }));
    expect(shape(runTree(state))).toEqual([
      { r1: [{ r2: [] }, { r3: [{ r4: [] }] }] },
      { lost: [] },
    ]);
  });

  it('breaks a cycle at its oldest run', () => {
    const state = build(
      t.runStarted('x', { startingConditions: continuation('y', null) }),
      t.runStarted('y', { startingConditions: continuation('x', null) }),
    );
    const roots = runTree(state);
    expect(roots.map((node) => node.run.runId)).toEqual(['x']);
    expect(roots[0]?.children.map((node) => node.run.runId)).toEqual(['y']);
  });
});

import type { HankweaveState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { snapshotCodons } from './state-snapshot.js';

// A hank `plan`, then block `review` (branches `left`: l1, l2; `right`: r1; `docs`: d1), then
// `report`. Records are hand-made: only the fields the snapshot reads matter.
const branchOf = (codonId: string) =>
  ({ l1: 'left', l2: 'left', r1: 'right', d1: 'docs' })[codonId];
const plan = ['plan', 'l1', 'l2', 'r1', 'd1', 'review', 'report'].map((codonId) => {
  const branchId = branchOf(codonId);
  return {
    codonId,
    codon: { id: codonId },
    ...(branchId
      ? { parallelContext: { blockId: 'review', role: 'branch', branchId } }
      : codonId === 'review'
        ? { parallelContext: { blockId: 'review', role: 'merge' } }
        : {}),
  };
});
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
const record = (codonId: string, status: string, second: number) => ({
  codonId,
  status,
  startTime: at(second),
  ...(status === 'completed'
    ? { endTime: at(second + 1), completionCheckpoint: `sha-${codonId}` }
    : {}),
});
const run = (runId: string, codons: unknown[], startingConditions: unknown = { type: 'new' }) => ({
  runId,
  runFolder: `runs/${runId}`,
  gitBranch: `run-${runId}`,
  startingConditions,
  codons,
  status: 'running',
  startTime: at(0),
  serverPid: 1,
});
const stateOf = (runs: unknown[]): HankweaveState =>
  ({
    runs,
    currentRunId: (runs[0] as { runId: string }).runId,
    executionPlan: plan,
  }) as unknown as HankweaveState;
const ids = (records: readonly unknown[] | undefined) =>
  (records ?? []).map((entry) => (entry as { codonId: string }).codonId);

describe('snapshotCodons()', () => {
  it('lists every running branch codon with its branch, oldest first, while a block runs', () => {
    const state = stateOf([
      run('r1', [
        record('plan', 'completed', 1),
        record('l1', 'completed', 2),
        record('r1', 'running', 3),
        record('d1', 'completed', 4),
        record('l2', 'initializing', 6),
      ]),
    ]);
    const { currentCodon, activeCodons, completedCodons } = snapshotCodons(state);
    expect(activeCodons).toEqual([
      expect.objectContaining({
        codonId: 'r1',
        status: 'running',
        branch: { blockId: 'review', branchId: 'right' },
      }),
      expect.objectContaining({
        codonId: 'l2',
        status: 'initializing',
        branch: { blockId: 'review', branchId: 'left' },
      }),
    ]);
    // The original's field: one record, the oldest running, as state.json holds it.
    expect(currentCodon).toEqual(record('r1', 'running', 3));
    expect(ids(completedCodons)).toEqual(['plan', 'l1', 'd1']);
    expect(completedCodons[1]).toMatchObject({ branch: { blockId: 'review', branchId: 'left' } });
    expect(completedCodons[0]).not.toHaveProperty('branch');
  });

  it('lists the completed branch codons and the merge after the block, and nothing running', () => {
    const state = stateOf([
      run('r1', [
        record('plan', 'completed', 1),
        record('l1', 'completed', 2),
        record('r1', 'completed', 3),
        record('d1', 'completed', 4),
        record('l2', 'completed', 6),
        record('review', 'completed', 8),
        record('report', 'completed', 10),
      ]),
    ]);
    const snapshot = snapshotCodons(state);
    expect(snapshot).not.toHaveProperty('currentCodon');
    expect(snapshot.activeCodons).toEqual([]);
    expect(ids(snapshot.completedCodons)).toEqual([
      'plan',
      'l1',
      'r1',
      'd1',
      'l2',
      'review',
      'report',
    ]);
    expect(snapshot.completedCodons[5]).not.toHaveProperty('branch');
  });

  it('keeps the branch codons a resumed block finished before the crash', () => {
    // Run a crashed inside the block; run b continues after l1 (the newest codon the plan moved
    // past) and runs the unfinished branches again.
    const crashed = {
      ...run('a', [
        record('plan', 'completed', 1),
        record('l1', 'completed', 2),
        { ...record('r1', 'failed', 3), failedDuring: 'running' },
      ]),
      status: 'crashed',
    };
    const resumed = run('b', [record('r1', 'running', 20), record('l2', 'preparing', 21)], {
      type: 'continuation',
      source: { runId: 'a', afterCodon: 'l1', checkpointSha: 'sha-base' },
      reason: 'continue',
    });
    const snapshot = snapshotCodons(stateOf([resumed, crashed]));
    expect(ids(snapshot.activeCodons)).toEqual(['r1', 'l2']);
    expect(ids(snapshot.completedCodons)).toEqual(['plan', 'l1']);
    expect(snapshot.completedCodons[1]).toMatchObject({
      branch: { blockId: 'review', branchId: 'left' },
    });
  });
});

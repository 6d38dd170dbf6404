import { describe, expect, it } from 'vitest';
import { describeEvent } from './describe-event.js';
import { lanesFromEvent, runningCodonsLabel } from './lanes.js';

// What a view fed by the WebSocket alone (`--attach`) learns of parallel branches (issue 36).
const startTime = '2026-01-01T00:00:00.000Z';
const left = { blockId: 'review', branchId: 'left' };
const right = { blockId: 'review', branchId: 'right' };
const record = (codonId: string, status: string, branch?: unknown) => ({
  codonId,
  status,
  startTime,
  ...(branch ? { branch } : {}),
});
const snapshot = (data: Record<string, unknown>) => ({
  id: 'evt_1',
  type: 'state.snapshot',
  timestamp: startTime,
  data: {
    completedCodons: [],
    fileTree: [],
    totalCost: 0.5,
    totalTime: 1,
    isRollingBack: false,
    ...data,
  },
});

describe('lanesFromEvent()', () => {
  it('reads the branch of a codon event, and of every snapshot record that has one', () => {
    expect(
      lanesFromEvent({ type: 'codon.started', data: { codonId: 'l1', branch: left } }),
    ).toEqual([['l1', { blockId: 'review', role: 'branch', branchId: 'left' }]]);
    const lanes = lanesFromEvent(
      snapshot({
        activeCodons: [record('r1', 'running', right)],
        completedCodons: [record('plan', 'completed'), record('l1', 'completed', left), 'old-id'],
      }),
    );
    expect(lanes.map(([codonId, lane]) => `${codonId}@${lane.branchId}`)).toEqual([
      'r1@right',
      'l1@left',
    ]);
  });

  it('finds nothing in other events, codons outside blocks, or damaged data', () => {
    expect(lanesFromEvent({ type: 'codon.started', data: { codonId: 'plan' } })).toEqual([]);
    expect(lanesFromEvent({ type: 'token.usage', data: { codonId: 'l1', branch: left } })).toEqual(
      [],
    );
    expect(lanesFromEvent({ type: 'state.snapshot', data: null })).toEqual([]);
    expect(
      lanesFromEvent({ type: 'codon.completed', data: { codonId: 'l1', branch: { blockId: 1 } } }),
    ).toEqual([]);
  });
});

describe('runningCodonsLabel()', () => {
  it('names every running codon with its lane, oldest first', () => {
    expect(
      runningCodonsLabel({
        activeCodons: [record('l1', 'running', left), record('r1', 'preparing', right)],
      }),
    ).toBe('[review/left] l1, [review/right] r1');
  });

  it("falls back to the original's one currentCodon, record or bare id", () => {
    expect(runningCodonsLabel({ currentCodon: record('write', 'running') })).toBe('write');
    expect(runningCodonsLabel({ currentCodon: 'write' })).toBe('write');
    expect(runningCodonsLabel({ activeCodons: [], currentCodon: null })).toBe('');
  });
});

describe('describeEvent() of state.snapshot', () => {
  it('lists the running codons of a parallel block with their lanes', () => {
    const event = snapshot({
      currentCodon: record('l1', 'running'),
      activeCodons: [record('l1', 'running', left), record('r1', 'running', right)],
      completedCodons: [record('plan', 'completed')],
    });
    expect(describeEvent(event as never)).toBe(
      'snapshot: 1 completed, running [review/left] l1, [review/right] r1, total $0.5000',
    );
  });

  it('reads as before when nothing runs', () => {
    expect(describeEvent(snapshot({ activeCodons: [] }) as never)).toBe(
      'snapshot: 0 completed, total $0.5000',
    );
  });
});

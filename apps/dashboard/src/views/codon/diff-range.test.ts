import { describe, expect, it } from 'vitest';
import type { CheckpointWire } from '../../api/types.js';
import { bar } from '../timeline/test-bars.js';
import { codonDiffRange } from './diff-range.js';

const at = (min: number) =>
  new Date(Date.parse('2026-01-01T10:00:00Z') + min * 60_000).toISOString();
const checkpoint = (
  sha: string,
  min: number,
  over: Partial<CheckpointWire> = {},
): CheckpointWire => ({
  sha,
  type: 'completed',
  runId: 'run-1',
  time: at(min),
  message: sha,
  ...over,
});

describe('codonDiffRange()', () => {
  const list = [
    checkpoint('aaa', 1, { codonId: 'explore' }),
    checkpoint('bbb', 2.5, { codonId: 'write', type: 'rig-setup' }),
    checkpoint('ccc', 4, { codonId: 'write' }),
    checkpoint('zzz', 1.5, { runId: 'run-0' }),
  ];

  it('runs from the previous checkpoint of the same run to the codon’s end', () => {
    const write = bar('write', 2, 4, {
      checkpoints: [
        { type: 'rig-setup', sha: 'bbb' },
        { type: 'completed', sha: 'ccc' },
      ],
    });
    expect(codonDiffRange(write, list)).toEqual({ from: 'aaa', to: 'ccc' });
  });

  it('starts a continuation run’s first codon at the checkpoint the run continues from', () => {
    const first = bar('write', 2, 4, {
      runId: 'run-2',
      checkpoints: [{ type: 'completed', sha: 'ddd' }],
    });
    expect(codonDiffRange(first, list, 'aaa')).toEqual({ from: 'aaa', to: 'ddd' });
  });

  it('falls back to the codon’s rig-setup checkpoint', () => {
    const first = bar('explore', 0, 1, {
      runId: 'run-9',
      checkpoints: [
        { type: 'rig-setup', sha: 'r00' },
        { type: 'completed', sha: 'aaa' },
      ],
    });
    expect(codonDiffRange(first, list)).toEqual({ from: 'r00', to: 'aaa' });
  });

  it('gives nothing without checkpoints or without a start', () => {
    expect(codonDiffRange(bar('x', 0, 1), list)).toBeUndefined();
    expect(
      codonDiffRange(
        bar('x', 0, 1, { runId: 'run-9', checkpoints: [{ type: 'completed', sha: 'q' }] }),
        [],
      ),
    ).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { CodonBar } from '../../api/types.js';
import { runningBars, runningLabel } from './running-codons.js';

const bar = (codonId: string, second: number, extra: Partial<CodonBar> = {}): CodonBar => ({
  key: `run-1/${codonId}`,
  runId: 'run-1',
  codonId,
  name: `Codon ${codonId}`,
  status: 'running',
  startTime: new Date(Date.UTC(2026, 0, 1, 10, 0, second)).toISOString(),
  costUsd: 0,
  tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  extensions: 0,
  attempt: 1,
  checkpoints: [],
  ...extra,
});

describe('runningBars()', () => {
  it('lists every codon without an end, oldest first, and none that ended', () => {
    const bars = [
      bar('c1', 7, { parallel: { blockId: 'work', role: 'branch', branchId: 'on-c' } }),
      bar('setup', 0, { status: 'completed', endTime: '2026-01-01T10:00:05.000Z' }),
      bar('a1', 6, { parallel: { blockId: 'work', role: 'branch', branchId: 'on-a' } }),
    ];
    expect(runningBars(bars).map((running) => running.codonId)).toEqual(['a1', 'c1']);
    expect(runningBars([bars[1] as CodonBar])).toEqual([]);
  });
});

describe('runningLabel()', () => {
  it('names the codon, its id and its branch', () => {
    expect(
      runningLabel(
        bar('a1', 0, { parallel: { blockId: 'work', role: 'branch', branchId: 'on-a' } }),
      ),
    ).toBe('Codon a1 (a1 · branch on-a)');
    expect(runningLabel(bar('solo', 0))).toBe('Codon solo (solo)');
  });
});

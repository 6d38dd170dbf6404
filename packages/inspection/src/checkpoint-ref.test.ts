import type { HankweaveState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { parseRef } from './checkpoint-ref.js';

const record = (codonId: string) => ({
  codonId,
  status: 'completed',
  startTime: '2026-01-01T00:00:00.000Z',
  endTime: '2026-01-01T00:00:01.000Z',
  finalCost: 0,
  finalTokens: { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 },
  completionCheckpoint: `sha-${codonId}`,
});
const state = {
  currentRunId: null,
  executionPlan: ['observe', 'polish#0', 'polish#1'].map((codonId) => ({
    codonId,
    codon: { id: codonId.split('#')[0], name: codonId },
  })),
  runs: [
    {
      runId: 'r1',
      runFolder: '/x',
      gitBranch: 'run-r1',
      status: 'completed',
      startingConditions: { type: 'fresh' },
      startTime: '2026-01-01T00:00:00.000Z',
      serverPid: 1,
      codons: [record('observe'), record('polish#0'), record('polish#1')],
    },
  ],
} as unknown as HankweaveState;

describe('parseRef()', () => {
  it('reads codon ids with an optional checkpoint type, defaulting to end', () => {
    expect(parseRef('observe', state)).toEqual({ kind: 'codon', codonId: 'observe', type: 'end' });
    expect(parseRef('observe:rig-setup', state)).toEqual({
      kind: 'codon',
      codonId: 'observe',
      type: 'rig-setup',
    });
  });

  it('takes a loop codon without its iteration as its newest iteration on the thread', () => {
    expect(parseRef('polish:start', state)).toEqual({
      kind: 'codon',
      codonId: 'polish#1',
      type: 'start',
    });
  });

  it('leaves shas and branch names to git, and rejects an unknown codon with a type', () => {
    expect(parseRef('a1b2c3d', state)).toEqual({ kind: 'git', ref: 'a1b2c3d' });
    expect(() => parseRef('nope:completed', state)).toThrow(
      expect.objectContaining({ code: 'INSPECTION_NOT_FOUND' }),
    );
  });
});

import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { asJobProgress, JobProgressTracker } from './job-progress.js';

const at = '2025-01-01T00:00:00.000Z';
const started = (codonId: string) =>
  ({
    id: `e-${codonId}`,
    type: 'codon.started',
    timestamp: at,
    data: { codonId, codonName: codonId, sessionId: 's', startTime: at },
  }) as HankweaveEvent;
const completed = (codonId: string, success: boolean, cost: number) =>
  ({
    id: `c-${codonId}`,
    type: 'codon.completed',
    timestamp: at,
    data: { codonId, success, cost, duration: 1, exitStatus: { type: 'success' } },
  }) as HankweaveEvent;

describe('JobProgressTracker', () => {
  const tracker = () =>
    new JobProgressTracker(
      { worker: 'w:1', executionDir: '/x', resumed: true },
      () => new Date(at),
    );

  describe('apply()', () => {
    it('records codon starts and completions with their cost', () => {
      const progress = tracker();
      expect(progress.apply(started('a'))).toBe(true);
      expect(progress.progress).toMatchObject({ phase: 'running', current: 'a' });
      progress.apply(completed('a', true, 0.5));
      progress.apply(started('b'));
      progress.apply(completed('b', false, 0.25));
      expect(progress.progress).toEqual({
        phase: 'running',
        worker: 'w:1',
        executionDir: '/x',
        resumed: true,
        codons: [
          { codonId: 'a', status: 'completed', cost: 0.5, startedAt: at, endedAt: at },
          { codonId: 'b', status: 'failed', cost: 0.25, startedAt: at, endedAt: at },
        ],
        completed: 1,
        failed: 1,
        cost: 0.75,
        current: null,
        last: { type: 'codon.completed', codonId: 'b', success: false, cost: 0.25, at },
        updatedAt: at,
      });
    });

    it('ignores every other event', () => {
      const progress = tracker();
      const event = { id: 'i', type: 'info', timestamp: at, data: { message: 'x' } };
      expect(progress.apply(event as HankweaveEvent)).toBe(false);
    });

    it('keeps the last 100 attempts only', () => {
      const progress = tracker();
      for (let index = 0; index < 150; index++) progress.apply(started(`c${index}`));
      expect(progress.progress.codons).toHaveLength(100);
      expect(progress.progress.codons[0]?.codonId).toBe('c50');
    });
  });

  it('round-trips through asJobProgress', () => {
    expect(asJobProgress(tracker().progress)?.phase).toBe('starting');
    expect(asJobProgress(42)).toBeUndefined();
  });
});

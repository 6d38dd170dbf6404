import { describe, expect, it } from 'vitest';
import { acquireRuntimeLock } from '../../lock/acquire-runtime-lock.js';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { codonLifecycle, makeTransition as t } from '../transitions.js';

const DEAD = 111;
const ALIVE = 222;
const isPidAlive = (pid: number): boolean => pid !== DEAD;

/** `detectCrashedRuns()`: reference §5.3. */
export const describeDetectCrashedRunsCases = (harness: StateStoreHarness): void => {
  describe('detectCrashedRuns()', () => {
    const ctx = useCaseContext(harness);

    const crashedServerState = async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('old', { serverPid: DEAD }));
      for (const step of codonLifecycle('old', 'done', 'completed')) store.apply(step);
      for (const step of codonLifecycle('old', 'research', 'running', 0.25)) store.apply(step);
      await store.flush();
    };

    it('does nothing on open: loading never writes', async () => {
      await crashedServerState();
      const store = await ctx().open({ isPidAlive });
      expect(store.state.runs[0]?.status).toBe('running');
      expect(store.stats().applied).toBe(0);
    });

    it('marks a running run whose server pid is dead as crashed and fails its active codons', async () => {
      await crashedServerState();
      const store = await ctx().open({
        isPidAlive,
        clock: () => new Date('2025-01-05T00:00:00.000Z'),
      });
      expect(store.detectCrashedRuns()).toEqual(['old']);
      const run = store.state.runs[0];
      expect(run).toMatchObject({ status: 'crashed', endTime: '2025-01-05T00:00:00.000Z' });
      expect(store.state.currentRunId).toBeNull();
      expect(run?.codons[0]).toMatchObject({ codonId: 'done', status: 'completed' });
      expect(run?.codons[1]).toMatchObject({
        codonId: 'research',
        status: 'failed',
        failedDuring: 'running',
        exitCode: -1,
        failureReason: { type: 'unknown', retriable: false, message: 'Server crashed' },
        partialCost: 0.25,
        endTime: '2025-01-05T00:00:00.000Z',
        sentinels: { executed: [expect.objectContaining({ id: 'narrator' })], totalCost: 0.001 },
      });
      expect(run?.codons[1]).not.toHaveProperty('sentinels.loaded');
      await store.flush();
      expect((await ctx().open()).state).toEqual(store.state);
    });

    it("leaves runs whose server is alive, and the caller's own run, alone", async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('other', { serverPid: ALIVE }));
      store0.apply(t.runStarted('mine', { serverPid: DEAD }));
      await store0.flush();
      const store = await ctx().open({ isPidAlive });
      expect(store.detectCrashedRuns({ exceptRunId: 'mine' })).toEqual([]);
      expect(store.state.runs.map((run) => run.status)).toEqual(['running', 'running']);
    });

    it('treats every other running run as crashed while holding runtime.lock, live pid or not', async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('before-restart', { serverPid: process.pid }));
      await store0.flush();
      const lock = await acquireRuntimeLock(ctx().dir, { fs: ctx().fs, heartbeatIntervalMs: 0 });
      try {
        const store = await ctx().open({ lock, isPidAlive: () => true });
        store.apply(t.runStarted('now', { serverPid: process.pid }));
        expect(store.detectCrashedRuns({ exceptRunId: 'now' })).toEqual(['before-restart']);
        expect(store.state.currentRunId).toBe('now');
      } finally {
        await lock.release();
      }
    });
  });
};

import { setImmediate as nextTick } from 'node:timers/promises';
import { createFaultyFs } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { readState } from '../../read/read-state.js';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { codonLifecycle, makeTransition as t } from '../transitions.js';

/** `flush()`: durability, the backup, coalescing, write failures. */
export const describeFlushCases = (harness: StateStoreHarness): void => {
  describe('flush()', () => {
    const ctx = useCaseContext(harness);

    it('makes every applied transition visible to a new reader', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'completed')) store.apply(step);
      await store.flush();
      const read = await readState(ctx().dir, { fs: ctx().fs });
      expect(read.source).toBe('primary');
      expect(read.state).toEqual(store.state);
    });

    it('writes state.json as JSON indented by 2 spaces', async () => {
      const store = await ctx().open();
      const state = store.apply(t.runStarted('r1'));
      await store.flush();
      expect(await ctx().read(ctx().paths.primary)).toBe(JSON.stringify(state, null, 2));
    });

    it('keeps the previous durable state in state.json.bak', async () => {
      const store = await ctx().open();
      const first = store.apply(t.runStarted('r1'));
      await store.flush();
      expect(await ctx().read(ctx().paths.backup)).toBeUndefined();
      store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      expect(JSON.parse((await ctx().read(ctx().paths.backup)) ?? '')).toEqual(first);
      expect(await ctx().list()).toEqual(['state.json', 'state.json.bak']);
    });

    it('resolves at once when nothing is pending', async () => {
      const store = await ctx().open();
      await store.flush();
      expect(store.stats().writes).toBe(0);
    });

    it('coalesces a synchronous burst of 1000 transitions into one write', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'running')) store.apply(step);
      for (let count = 1; count <= 1000; count++) store.apply(t.messages('r1', 'research', count));
      await store.flush();
      expect(store.stats().writes).toBe(1);
      const read = await readState(ctx().dir, { fs: ctx().fs });
      expect(read.state).toEqual(store.state);
    });

    it('folds transitions applied during a write into the next single write', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'running')) store.apply(step);
      const flushes: Promise<void>[] = [];
      for (let count = 1; count <= 300; count++) {
        store.apply(t.messages('r1', 'research', count));
        flushes.push(store.flush());
        if (count % 10 === 0) await nextTick();
      }
      await Promise.all(flushes);
      const { writes, durable, applied } = store.stats();
      expect(durable).toBe(applied);
      expect(writes).toBeLessThan(31);
      const read = await readState(ctx().dir, { fs: ctx().fs });
      expect(read.state).toEqual(store.state);
    });

    describe.runIf(harness.capabilities?.faultInjection)('when a save fails', () => {
      it('rejects with STATE_WRITE_FAILED, keeps the state, and the next flush saves it', async () => {
        const fs = createFaultyFs({ fs: ctx().fs });
        const errors: string[] = [];
        const store = await ctx().open({ fs, onWriteError: (error) => errors.push(error.code) });
        store.apply(t.runStarted('r1'));
        await store.flush();
        fs.arm({ failAt: 'rename', mode: 'throw', code: 'ENOSPC' });
        const state = store.apply(t.codonStarted('r1', 'research'));
        await expect(store.flush()).rejects.toMatchObject({
          code: 'STATE_WRITE_FAILED',
          details: { code: 'ENOSPC' },
        });
        expect(errors).toEqual(['STATE_WRITE_FAILED']);
        expect(store.state).toBe(state);
        await store.flush();
        expect((await readState(ctx().dir, { fs: ctx().fs })).state).toEqual(state);
        expect(store.stats()).toMatchObject({ failedWrites: 1, writes: 2 });
      });

      it('falls back to copying the backup where hard links are not supported', async () => {
        const fs = createFaultyFs({ fs: ctx().fs });
        const store = await ctx().open({ fs });
        const first = store.apply(t.runStarted('r1'));
        await store.flush();
        fs.arm({ failAt: 'link', mode: 'throw', code: 'EPERM' });
        store.apply(t.codonStarted('r1', 'research'));
        await store.flush();
        expect(fs.trace.map((call) => call.op)).toContain('copyFile');
        expect(JSON.parse((await ctx().read(ctx().paths.backup)) ?? '')).toEqual(first);
      });
    });
  });
};

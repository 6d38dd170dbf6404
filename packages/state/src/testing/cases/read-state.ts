import { describe, expect, it } from 'vitest';
import { readState } from '../../read/read-state.js';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { makeTransition as t } from '../transitions.js';

/** `readState()`: the reader of custom tools. */
export const describeReadStateCases = (harness: StateStoreHarness): void => {
  describe('readState()', () => {
    const ctx = useCaseContext(harness);

    it('reports the source it used and writes nothing, even after a recovery', async () => {
      const store = await ctx().open();
      const first = store.apply(t.runStarted('r1'));
      await store.flush();
      store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      await ctx().write(ctx().paths.primary, 'garbage');
      await ctx().write(ctx().paths.temp, 'half');
      const before = await ctx().list();
      const read = await readState(ctx().dir, { fs: ctx().fs });
      expect(read).toMatchObject({ source: 'backup', state: first, validation: { valid: true } });
      expect(read.recovery.leftoverTemp).toBe(true);
      expect(await ctx().list()).toEqual(before);
      expect(await ctx().read(ctx().paths.primary)).toBe('garbage');
    });

    it('reads whole states while a store keeps saving', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      const saving = (async () => {
        for (let index = 0; index < 40; index++) {
          store.apply(t.runCompleted(`r${index + 1}`));
          store.apply(t.runStarted(`r${index + 2}`));
          await store.flush();
        }
      })();
      const sources = new Set<string>();
      let reads = 0;
      let done = false;
      void saving.finally(() => {
        done = true;
      });
      while (!done || reads === 0) {
        const read = await readState(ctx().dir, { fs: ctx().fs });
        sources.add(read.source);
        reads++;
      }
      await saving;
      expect(sources).not.toContain('backup');
      expect(reads).toBeGreaterThan(0);
    });
  });
};

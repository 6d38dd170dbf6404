import type { StateTransition } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { INVALID_TRANSITIONS } from '../invalid-transitions.js';
import { codonLifecycle, METADATA_FOR, makeTransition as t } from '../transitions.js';

/** `apply()`: synchronous, the only way to change state, invalid transitions change nothing. */
export const describeApplyCases = (harness: StateStoreHarness): void => {
  describe('apply()', () => {
    const ctx = useCaseContext(harness);

    it('returns the new state synchronously, before anything is written', async () => {
      const store = await ctx().open();
      const state = store.apply(t.runStarted('r1'));
      expect(state.currentRunId).toBe('r1');
      expect(store.state).toBe(state);
      expect(store.stats()).toMatchObject({ applied: 1, durable: 0, writes: 0 });
      await store.flush();
      expect(store.stats()).toMatchObject({ durable: 1, writes: 1 });
    });

    it('keeps runs newest first and makes the new run current', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      store.apply(t.runCompleted('r1'));
      const state = store.apply(t.runStarted('r2'));
      expect(state.runs.map((run) => run.runId)).toEqual(['r2', 'r1']);
      expect(state.currentRunId).toBe('r2');
    });

    it('appends a record for a retry and addresses the latest one', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'failed')) store.apply(step);
      store.apply(t.codonStarted('r1', 'research', 100));
      const state = store.apply(
        t.to('r1', 'research', 'preparing', 'starting', METADATA_FOR.starting),
      );
      expect(state.runs[0]?.codons.map((codon) => codon.status)).toEqual(['failed', 'starting']);
    });

    for (const invalid of INVALID_TRANSITIONS) {
      it(`rejects ${invalid.name} with ${invalid.code} and changes nothing`, async () => {
        const store = await ctx().open();
        for (const step of invalid.setup) store.apply(step);
        const before = store.state;
        const applied = store.stats().applied;
        expect(() => store.apply(invalid.transition as StateTransition)).toThrow(
          expect.objectContaining({ name: 'StateError', code: invalid.code }),
        );
        expect(store.state).toBe(before);
        expect(store.stats().applied).toBe(applied);
      });
    }

    it('refuses transitions after close() with STATE_CLOSED', async () => {
      const store = await ctx().open();
      store.apply(t.runStarted('r1'));
      await store.close();
      expect(() => store.apply(t.runCompleted('r1'))).toThrow(
        expect.objectContaining({ code: 'STATE_CLOSED' }),
      );
    });
  });
};

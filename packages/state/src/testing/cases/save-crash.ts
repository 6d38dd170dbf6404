import { createFaultyFs, type FaultyFs } from '@hankweave/durable-io/testing';
import { emptyState, type HankweaveState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import type { StateStore } from '../../state-store.js';
import { type CaseContext, type StateStoreHarness, useCaseContext } from '../harness.js';
import { makeTransition as t } from '../transitions.js';

// A save makes at most 12 file system calls (preserve, mkdir, unlink, link, open, write, fsync,
// close, rename, open dir, fsync dir, close dir); step 12 is "after the last step".
const STEPS = 13;

interface Scenario {
  name: string;
  /** Puts the directory in its starting shape; returns the durable state a store will load. */
  prepare(ctx: CaseContext): Promise<HankweaveState>;
}

const SCENARIOS: Scenario[] = [
  { name: 'the first save (no state file yet)', prepare: async () => emptyState() },
  {
    name: 'a save over state.json and state.json.bak',
    prepare: async (ctx) => {
      const store = await ctx.open();
      store.apply(t.runStarted('r1'));
      await store.flush();
      const state = store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      return state;
    },
  },
  {
    name: 'the first save after recovering from a damaged state.json',
    prepare: async (ctx) => {
      const store = await ctx.open();
      const state = store.apply(t.runStarted('r1'));
      await store.flush();
      store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      await ctx.write(ctx.paths.primary, '{"runs": [{"torn');
      return state;
    },
  },
];

const reopen = async (ctx: CaseContext): Promise<StateStore> => ctx.open();

/**
 * Crash and I/O-error cases: the process dies (or a call fails) at every step of the save
 * sequence. What is on disk must always load, and equal either the state that was durable before
 * the save or the state being saved; never anything else, never a half file.
 */
export const describeSaveCrashCases = (harness: StateStoreHarness): void => {
  describe.runIf(harness.capabilities?.faultInjection)('save sequence under faults', () => {
    const ctx = useCaseContext(harness);

    const start = async (scenario: Scenario) => {
      const before = await scenario.prepare(ctx());
      const fs: FaultyFs = createFaultyFs({ fs: ctx().fs });
      const store = await ctx().open({ fs });
      expect(store.state).toEqual(before);
      return { before, fs, store };
    };

    for (const scenario of SCENARIOS) {
      describe(scenario.name, () => {
        for (let step = 0; step < STEPS; step++) {
          it(`leaves the previous or the new state when the process dies at step ${step}`, async () => {
            const { before, fs, store } = await start(scenario);
            fs.arm({ failAt: 'any', after: step, mode: 'crash' });
            const after = store.apply(t.runStarted('crash-probe'));
            const flushed = await store.flush().then(
              () => true,
              () => false,
            );
            expect(flushed).toBe(!fs.crashed);
            // The last step is past the end of the sequence: every call was exercised.
            if (step === STEPS - 1) expect(fs.faulted).toBe(false);
            const reopened = await reopen(ctx());
            if (before.runs.length > 0) expect(reopened.recovery.source).not.toBe('fresh');
            expect([before, after]).toContainEqual(reopened.state);
            if (flushed) expect(reopened.state).toEqual(after);
            expect(reopened.validation.valid).toBe(true);
          });

          it(`saves on the next flush after an I/O error at step ${step}`, async () => {
            const { before, fs, store } = await start(scenario);
            fs.arm({ failAt: 'any', after: step, mode: 'throw' });
            const after = store.apply(t.runStarted('error-probe'));
            const failed = await store.flush().then(
              () => false,
              (error: { code?: string }) => error.code === 'STATE_WRITE_FAILED',
            );
            expect(failed).toBe(fs.faulted);
            expect([before, after]).toContainEqual((await reopen(ctx())).state);
            await store.flush();
            const reopened = await reopen(ctx());
            expect(reopened.recovery.source).toBe('primary');
            expect(reopened.state).toEqual(after);
          });
        }
      });
    }

    it('performs backup, write, fsync, rename, directory fsync, in that order', async () => {
      const { fs, store } = await start(SCENARIOS[1] as Scenario);
      store.apply(t.runStarted('warm-up'));
      await store.flush();
      fs.clearTrace();
      store.apply(t.runStarted('order-probe'));
      await store.flush();
      const steps = fs.trace.map((call) => `${call.op}:${call.path.split('/').at(-1)}`);
      expect(steps).toEqual([
        'unlink:state.json.bak',
        'link:state.json',
        'open:state.json.tmp',
        'writeFile:state.json.tmp',
        'fsync:state.json.tmp',
        'close:state.json.tmp',
        'rename:state.json.tmp',
        `open:${ctx().dir.split('/').at(-1)}`,
        `fsync:${ctx().dir.split('/').at(-1)}`,
        `close:${ctx().dir.split('/').at(-1)}`,
      ]);
    });
  });
};

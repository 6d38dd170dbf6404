import { emptyState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { codonLifecycle, makeTransition as t } from '../transitions.js';

/** `StateStore.open()`: the recovery chain, leftovers, validation warnings. */
export const describeOpenCases = (harness: StateStoreHarness): void => {
  describe('open()', () => {
    const ctx = useCaseContext(harness);

    /** Two durable saves: state.json holds `second`, state.json.bak holds `first`. */
    const twoSaves = async () => {
      const store = await ctx().open();
      const first = store.apply(t.runStarted('r1'));
      await store.flush();
      const second = store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      return { first, second };
    };

    it('starts fresh, without a warning, when there is no state file yet', async () => {
      const store = await ctx().open();
      expect(store.state).toEqual(emptyState());
      expect(store.recovery).toMatchObject({ source: 'fresh', leftoverTemp: false });
      expect(store.validation).toEqual({ valid: true, errors: [], warnings: [] });
      expect(ctx().logger.warnings).toEqual([]);
    });

    it('loads state.json when it is valid', async () => {
      const { second } = await twoSaves();
      const store = await ctx().open();
      expect(store.recovery.source).toBe('primary');
      expect(store.state).toEqual(second);
    });

    for (const [damage, text] of [
      ['truncated', (json: string) => json.slice(0, Math.floor(json.length / 2))],
      ['garbage', () => '\u0000\u0000garbage{{{'],
      ['empty', () => ''],
      ['valid JSON of the wrong shape', () => JSON.stringify({ runs: 'nope' })],
    ] as const) {
      it(`recovers from state.json.bak when state.json is ${damage}`, async () => {
        const { first } = await twoSaves();
        const json = (await ctx().read(ctx().paths.primary)) ?? '';
        await ctx().write(ctx().paths.primary, text(json));
        const store = await ctx().open();
        expect(store.recovery.source).toBe('backup');
        expect(store.recovery.rejected[0]?.file).toBe('state.json');
        expect(store.state).toEqual(first);
        expect(ctx().logger.warnings.join('\n')).toMatch(/state\.json\.bak/);
      });
    }

    it('recovers from state.json.bak when state.json is missing', async () => {
      const { first } = await twoSaves();
      await ctx().fs.unlink(ctx().paths.primary);
      const store = await ctx().open();
      expect(store.recovery).toMatchObject({
        source: 'backup',
        rejected: [{ problem: 'missing' }],
      });
      expect(store.state).toEqual(first);
      expect(ctx().logger.warnings).toEqual([expect.stringMatching(/state\.json is missing/)]);
    });

    /** The `.corrupt-<time>` copies of state.json in the directory. */
    const keptAside = async () =>
      (await ctx().list()).filter((name) => name.startsWith('state.json.corrupt-'));

    it('repairs a state whose currentRunId names no run (missing_run) and keeps its history', async () => {
      const { first, second } = await twoSaves();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      const damaged = JSON.stringify({ ...json, currentRunId: 'ghost' });
      await ctx().write(ctx().paths.primary, damaged);
      const store = await ctx().open();
      expect(store.recovery.source).toBe('primary');
      expect(store.recovery.repaired?.errors.map((error) => error.type)).toEqual(['missing_run']);
      expect(store.recovery.repairs).toEqual([
        {
          file: 'state.json',
          path: 'currentRunId',
          kind: 'current-run-reset',
          message: expect.stringMatching(/ghost.*'r1'/),
        },
      ]);
      // r1 is the newest running run: the one currentRunId named before the damage.
      expect(store.state).toEqual(second);
      expect(ctx().logger.warnings.join('\n')).toMatch(/repaired/);
      // Saved before open resolved; the damaged file kept aside; the backup still the good save.
      expect(JSON.parse((await ctx().read(ctx().paths.primary)) ?? '')).toEqual(second);
      const kept = await keptAside();
      expect(kept).toHaveLength(1);
      expect(await ctx().read(`${ctx().dir}/${kept[0]}`)).toBe(damaged);
      expect(JSON.parse((await ctx().read(ctx().paths.backup)) ?? '')).toEqual(first);
      // The repaired file is a good save: the next open loads it with no repair.
      const again = await ctx().open();
      expect(again.recovery).toMatchObject({ source: 'primary', repairs: [] });
      expect(again.state).toEqual(second);
    });

    it('repairs a codon record that lacks a field its status requires (invalid_codon)', async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'running')) store0.apply(step);
      await store0.flush();
      const good = store0.apply(t.messages('r1', 'research', 1));
      await store0.flush();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      delete json.runs[0].codons[0].claudeSessionId;
      await ctx().write(ctx().paths.primary, JSON.stringify(json));
      const store = await ctx().open();
      const errors = store.recovery.repaired?.errors ?? [];
      expect(errors.map((error) => error.type)).toEqual(['invalid_codon']);
      expect(errors[0]?.message).toMatch(/research.*claudeSessionId/);
      expect(store.recovery.source).toBe('primary');
      expect(store.recovery.repairs).toEqual([
        expect.objectContaining({
          path: 'runs[0].codons[0].claudeSessionId',
          kind: 'field-defaulted',
        }),
      ]);
      const expected = structuredClone(good);
      (expected.runs[0]?.codons[0] as { claudeSessionId: string }).claudeSessionId = '';
      expect(store.state).toEqual(expected);
      expect(await keptAside()).toHaveLength(1);
    });

    it('falls back to state.json.bak when a codon record has no known status (unrepairable)', async () => {
      const { first } = await twoSaves();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      json.runs[0].codons[0].status = 'levitating';
      await ctx().write(ctx().paths.primary, JSON.stringify(json));
      const store = await ctx().open();
      expect(store.recovery.source).toBe('backup');
      expect(store.recovery.repairs).toEqual([]);
      expect(store.recovery.rejected[0]?.errors.map((error) => error.type)).toEqual([
        'invalid_codon',
      ]);
      expect(store.state).toEqual(first);
    });

    it('starts fresh with a warning when both files are damaged, and keeps them at the first save', async () => {
      await twoSaves();
      await ctx().write(ctx().paths.primary, '{"runs": [');
      await ctx().write(ctx().paths.backup, 'not json');
      const store = await ctx().open();
      expect(store.recovery.source).toBe('fresh');
      expect(store.recovery.rejected.map((file) => file.problem)).toEqual(['not_json', 'not_json']);
      expect(store.state).toEqual(emptyState());
      expect(ctx().logger.warnings.length).toBeGreaterThan(0);
      store.apply(t.runStarted('r9'));
      await store.flush();
      const names = await ctx().list();
      expect(names.filter((name) => name.startsWith('state.json.corrupt-'))).toHaveLength(1);
      expect(names.filter((name) => name.startsWith('state.json.bak.corrupt-'))).toHaveLength(1);
      const kept = names.find((name) => name.startsWith('state.json.corrupt-')) as string;
      expect(await ctx().read(`${ctx().dir}/${kept}`)).toBe('{"runs": [');
    });

    it('throws STATE_CORRUPT instead when onUnrecoverable is "throw"', async () => {
      await ctx().write(ctx().paths.primary, 'garbage');
      await ctx().write(ctx().paths.backup, 'garbage');
      await expect(ctx().open({ onUnrecoverable: 'throw' })).rejects.toMatchObject({
        code: 'STATE_CORRUPT',
      });
    });

    it('notices a leftover state.json.tmp and ignores its content', async () => {
      const { second } = await twoSaves();
      await ctx().write(ctx().paths.temp, '{"half a save');
      const store = await ctx().open();
      expect(store.recovery).toMatchObject({ source: 'primary', leftoverTemp: true });
      expect(store.recovery.reason).toMatch(/state\.json\.tmp/);
      expect(store.state).toEqual(second);
    });

    it('warns about run folders that have no run (orphaned_folder)', async () => {
      await twoSaves();
      await ctx().fs.mkdir(`${ctx().paths.runsDir}/r1`, { recursive: true });
      await ctx().fs.mkdir(`${ctx().paths.runsDir}/lost-run`, { recursive: true });
      const store = await ctx().open();
      expect(store.validation.warnings).toEqual([
        { type: 'orphaned_folder', message: expect.stringMatching(/runs\/lost-run/) },
      ]);
    });

    it('warns about checkpoints the repository does not have (missing_checkpoint)', async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'completed')) store0.apply(step);
      await store0.flush();
      const asked: string[] = [];
      const store = await ctx().open({
        checkpointExists: async (sha) => {
          asked.push(sha);
          return sha !== 'done0001';
        },
      });
      expect(asked.sort()).toEqual(['done0001', 'rig0001']);
      expect(store.validation.warnings).toEqual([
        {
          type: 'missing_checkpoint',
          message: expect.stringMatching(/done0001.*completionCheckpoint/),
        },
      ]);
    });

    it('warns when a cached sentinel total disagrees with its sentinels (cost_mismatch)', async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'completed')) store0.apply(step);
      await store0.flush();
      store0.apply(t.runCompleted('r1'));
      await store0.flush();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      json.runs[0].codons[0].sentinels.totalCost = 5;
      await ctx().write(ctx().paths.primary, JSON.stringify(json));
      const store = await ctx().open();
      expect(store.validation.warnings.map((warning) => warning.type)).toEqual(['cost_mismatch']);
    });
  });
};

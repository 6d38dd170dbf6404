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

    it('rejects a state whose currentRunId names no run (missing_run) and uses the backup', async () => {
      const { first } = await twoSaves();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      await ctx().write(ctx().paths.primary, JSON.stringify({ ...json, currentRunId: 'ghost' }));
      const store = await ctx().open();
      expect(store.recovery.rejected[0]?.errors.map((error) => error.type)).toEqual([
        'missing_run',
      ]);
      expect(store.state).toEqual(first);
    });

    it('rejects a codon record that does not match its status (invalid_codon)', async () => {
      const store0 = await ctx().open();
      store0.apply(t.runStarted('r1'));
      for (const step of codonLifecycle('r1', 'research', 'running')) store0.apply(step);
      await store0.flush();
      store0.apply(t.messages('r1', 'research', 1));
      await store0.flush();
      const json = JSON.parse((await ctx().read(ctx().paths.primary)) ?? '{}');
      delete json.runs[0].codons[0].claudeSessionId;
      await ctx().write(ctx().paths.primary, JSON.stringify(json));
      const store = await ctx().open();
      const errors = store.recovery.rejected[0]?.errors ?? [];
      expect(errors.map((error) => error.type)).toEqual(['invalid_codon']);
      expect(errors[0]?.message).toMatch(/research.*claudeSessionId/);
      expect(store.recovery.source).toBe('backup');
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

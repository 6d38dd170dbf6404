import { replayTransitions, totalCost } from '@hankweave/state';
import { codonLifecycle, makeTransition as t } from '@hankweave/state/testing';
import { emptyState, type HankweaveState } from '@hankweave/types';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../test/use-database.js';
import { PgStateMirror } from './pg-state-mirror.js';

const { url, pool } = await useDatabase('state_mirror');
const mirror = new PgStateMirror({ pool });

const running = (): HankweaveState =>
  replayTransitions(emptyState(), [
    t.runStarted('r1'),
    ...codonLifecycle('r1', 'research', 'running'),
  ]);
const completed = (): HankweaveState =>
  replayTransitions(emptyState(), [
    t.runStarted('r1'),
    ...codonLifecycle('r1', 'research', 'completed', 0.25),
    t.runCompleted('r1'),
  ]);

describe('PgStateMirror', () => {
  describe('upsert() and read()', () => {
    it('stores a state with its status, current run and cost, and reads it back', async () => {
      const state = completed();
      expect(await mirror.upsert('m-read', state, { version: 3, worker: 'w1' })).toEqual({
        applied: true,
        version: 3,
      });
      expect(await mirror.read('m-read')).toEqual({
        executionId: 'm-read',
        version: 3,
        status: 'completed',
        currentRunId: null,
        totalCost: totalCost(state),
        runCount: 1,
        meta: { worker: 'w1' },
        updatedAt: expect.any(Date),
        state,
      });
      expect(await mirror.read('m-never')).toBeUndefined();
    });

    it('never lets an older or equal version overwrite a newer one', async () => {
      await mirror.upsert('m-guard', completed(), { version: 10 });
      expect(await mirror.upsert('m-guard', running(), { version: 9 })).toEqual({
        applied: false,
        version: 10,
      });
      expect(await mirror.upsert('m-guard', running(), { version: 10 })).toEqual({
        applied: false,
        version: 10,
      });
      expect((await mirror.read('m-guard'))?.status).toBe('completed');
    });

    it('keeps the highest version when 40 writers of two pools race', async () => {
      const otherPool = new pg.Pool({ connectionString: url, max: 4 });
      const other = new PgStateMirror({ pool: otherPool });
      try {
        const versions = Array.from({ length: 40 }, (_, i) => (i * 17) % 40); // shuffled 0..39
        await Promise.all(
          versions.map((version, i) =>
            (i % 2 ? mirror : other).upsert('m-race', running(), { version, at: version }),
          ),
        );
        expect(await mirror.read('m-race')).toMatchObject({ version: 39, meta: { at: 39 } });
      } finally {
        await otherPool.end();
      }
    });

    it('orders writes without a version by the writer clock, strictly increasing', async () => {
      const first = await mirror.upsert('m-clock', running());
      const second = await mirror.upsert('m-clock', completed());
      expect(second.version).toBeGreaterThan(first.version);
      expect((await mirror.read('m-clock'))?.status).toBe('completed');
    });

    it('round-trips a state Postgres cannot hold as jsonb (a NUL in a message)', async () => {
      const state = { ...running(), note: 'nul \u0000 here' } as HankweaveState;
      await mirror.upsert('m-nul', state, { version: 1 });
      expect((await mirror.read('m-nul'))?.state).toEqual(state);
    });

    it.each([
      ['an empty id', () => mirror.upsert('', running())],
      ['a state without runs', () => mirror.upsert('m', {} as HankweaveState)],
      ['a negative version', () => mirror.upsert('m', running(), { version: -1 })],
      ['a bad limit', () => mirror.list({ limit: 0 })],
    ])('rejects %s with POSTGRES_BAD_ARGUMENT', async (_name, call) => {
      await expect(call()).rejects.toMatchObject({ code: 'POSTGRES_BAD_ARGUMENT' });
    });
  });

  describe('list()', () => {
    it('lists executions newest first, filtered by status, without their states', async () => {
      await mirror.upsert('m-list-a', running(), { version: 1 });
      await mirror.upsert('m-list-b', completed(), { version: 1, status: 'archived' });
      const all = await mirror.list();
      expect(all.map((row) => row.executionId).slice(0, 2)).toEqual(['m-list-b', 'm-list-a']);
      expect(all[0]).not.toHaveProperty('state');
      expect((await mirror.list({ status: 'archived' })).map((row) => row.executionId)).toEqual([
        'm-list-b',
      ]);
      expect(await mirror.list({ limit: 1 })).toHaveLength(1);
    });
  });

  it('fails with POSTGRES_QUERY_FAILED when the database cannot be reached', async () => {
    const nowhere = new pg.Pool({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
    await expect(new PgStateMirror({ pool: nowhere }).list()).rejects.toMatchObject({
      code: 'POSTGRES_QUERY_FAILED',
    });
    await nowhere.end();
  });
});

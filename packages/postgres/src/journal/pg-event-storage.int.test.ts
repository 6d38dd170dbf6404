import { randomUUID } from 'node:crypto';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { createFileJournal, EventJournal } from '@hankweave/journal';
import { collect, infoEvent, readText, sampleRun } from '@hankweave/journal/testing';
import type { NewEvent } from '@hankweave/types';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../test/use-database.js';
import { PgEventStorage, type PgEventStorageOptions } from './pg-event-storage.js';

const { url, pool } = await useDatabase('journal_int');
const newer = await useDatabase('journal_schema_newer');
const race = await useDatabase('journal_schema_race');

const open = async (options: Partial<PgEventStorageOptions> = {}) => {
  const journal = new EventJournal(
    new PgEventStorage({ pool, executionId: randomUUID(), ...options }),
  );
  await journal.initialize();
  return journal;
};
const executionOf = (journal: EventJournal) => (journal.backend as PgEventStorage).executionId;
const seqs = async (executionId: string) =>
  (
    await pool.query<{ seq: string }>(
      'SELECT seq FROM hankweave_events WHERE execution_id = $1 ORDER BY seq',
      [executionId],
    )
  ).rows.map((row) => Number(row.seq));
const messages = (events: { data: unknown }[]) =>
  events.map((event) => (event.data as { message: string }).message);

describe('PgEventStorage', () => {
  describe('append()', () => {
    it('gives gapless sequence numbers in call order to 500 appends nobody awaits', async () => {
      const journal = await open();
      const stored = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          i % 50 === 7
            ? journal.appendMany([infoEvent(i), infoEvent(i + 0.5)])
            : journal.append(infoEvent(i)),
        ),
      );
      const ids = stored.flat().map((event) => event.id);
      expect((await collect(journal.getAllEvents())).map((event) => event.id)).toEqual(ids);
      expect(await seqs(executionOf(journal))).toEqual(ids.map((_, i) => i + 1));
    });

    it('serialises two instances (two pools) appending to one execution at once', async () => {
      const executionId = randomUUID();
      const otherPool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        const first = new EventJournal(new PgEventStorage({ pool, executionId }));
        const second = new EventJournal(new PgEventStorage({ pool: otherPool, executionId }));
        await Promise.all([first.initialize(), second.initialize()]);
        const tag = (who: string, i: number): NewEvent => ({
          ...infoEvent(i),
          data: { message: `${who} ${i}` },
        });
        const writes = Array.from({ length: 200 }, (_, i) => [
          first.append(tag('a', i)),
          second.append(tag('b', i)),
        ]).flat();
        await Promise.all(writes);
        const all = messages(await collect(first.getAllEvents()));
        expect(all).toHaveLength(400);
        expect(await seqs(executionId)).toEqual(all.map((_, i) => i + 1));
        // Interleaved between the instances, but each instance's events in its call order.
        for (const who of ['a', 'b']) {
          const own = all.filter((message) => message.startsWith(`${who} `));
          expect(own).toEqual(Array.from({ length: 200 }, (_, i) => `${who} ${i}`));
        }
        expect(await second.getTotalEvents()).toBe(400);
      } finally {
        await otherPool.end();
      }
    });

    it('acknowledges only committed events: another connection sees each at once', async () => {
      const journal = await open();
      const reader = new pg.Client({ connectionString: url });
      await reader.connect();
      try {
        for (let i = 0; i < 5; i++) {
          const stored = await journal.append(infoEvent(i));
          const found = await reader.query('SELECT 1 FROM hankweave_events WHERE line LIKE $1', [
            `%${stored.id}%`,
          ]);
          expect(found.rowCount).toBe(1);
        }
      } finally {
        await reader.end();
      }
    });

    it('writes one atomic transaction for an appendMany larger than a chunk', async () => {
      const journal = await open({ chunkEvents: 100 });
      const stored = await journal.appendMany(Array.from({ length: 1050 }, (_, i) => infoEvent(i)));
      expect(await journal.getTotalEvents()).toBe(1050);
      expect((await journal.getMostRecentEvents(2)).events).toEqual(stored.slice(-2));
    });

    it('fails with JOURNAL_WRITE_FAILED, writing nothing, when the journal row is gone', async () => {
      const journal = await open();
      await journal.append(infoEvent(0));
      await pool.query('DELETE FROM hankweave_journals WHERE execution_id = $1', [
        executionOf(journal),
      ]);
      await expect(journal.append(infoEvent(1))).rejects.toMatchObject({
        code: 'JOURNAL_WRITE_FAILED',
      });
      expect(await seqs(executionOf(journal))).toEqual([1]);
    });
  });

  describe('createRawStream()', () => {
    it('streams the same bytes as the file journal, for awkward events too', async () => {
      const events: NewEvent[] = [
        ...sampleRun(),
        { ...infoEvent(1), data: { message: 'nul \u0000 and a lone surrogate \ud800' } },
        { ...infoEvent(2), data: { message: 'ünïcødé ✓ 🎉', big: 1e21, tiny: 5e-324 } },
        { ...infoEvent(3), data: { message: 'keys keep their order', z: 1, a: 2 } },
      ].map((event, i) => ({ id: `evt_fixed${i}`, ...event }));
      const dir = await makeTempDir('pg-raw-');
      try {
        const file = await createFileJournal({ hankweaveDir: dir.path });
        await file.appendMany(events);
        const postgres = await open({ pageSize: 4 });
        await postgres.appendMany(events);
        const fileText = await readText(await file.streamAllEvents());
        expect(await readText(await postgres.streamAllEvents())).toBe(fileText);
        expect(await collect(postgres.getAllEvents())).toEqual(await collect(file.getAllEvents()));
        expect((await postgres.stats()).byteLength).toBe(Buffer.byteLength(fileText));
        await file.close();
      } finally {
        await dir.cleanup();
      }
    });
  });

  describe('the event column', () => {
    it('holds each event as jsonb for queries, null where Postgres cannot hold it', async () => {
      const journal = await open();
      await journal.appendMany(sampleRun());
      await journal.append({ ...infoEvent(1), data: { message: 'nul \u0000' } });
      const { rows } = await pool.query<{ type: string | null; cost: string | null }>(
        `SELECT event->>'type' AS type, event->'data'->>'totalCost' AS cost
           FROM hankweave_events WHERE execution_id = $1 ORDER BY seq`,
        [executionOf(journal)],
      );
      expect(
        rows.filter((row) => row.type === 'token.usage').map((row) => Number(row.cost)),
      ).toEqual([0.012, 0.0234, 0.005]);
      expect(rows.at(-1)).toEqual({ type: null, cost: null });
      expect((await journal.getMostRecentEvents(1)).events[0]?.data).toEqual({
        message: 'nul \u0000',
      });
    });
  });

  describe('readAll()', () => {
    it('fetches pageSize rows per query, never the whole journal', async () => {
      const counted = new pg.Pool({ connectionString: url, max: 2 });
      const sizes: number[] = [];
      const query = counted.query.bind(counted) as (...args: unknown[]) => Promise<pg.QueryResult>;
      counted.query = (async (...args: unknown[]) => {
        const result = await query(...args);
        if ((args[0] as { name?: string }).name === 'hw_journal_page')
          sizes.push(result.rowCount ?? 0);
        return result;
      }) as typeof counted.query;
      try {
        const executionId = randomUUID();
        const journal = new EventJournal(
          new PgEventStorage({ pool: counted, executionId, pageSize: 10 }),
        );
        await journal.appendMany(Array.from({ length: 95 }, (_, i) => infoEvent(i)));
        expect(await collect(journal.getAllEvents())).toHaveLength(95);
        expect(sizes).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 5]);
      } finally {
        await counted.end();
      }
    });
  });

  describe('readAfter()', () => {
    const bad = { code: 'JOURNAL_BAD_CURSOR' };

    it('refuses a forged cursor, and one of a journal deleted and created again', async () => {
      const journal = await open();
      await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const forged = `jp1.${Buffer.from(`2:${'A'.repeat(22)}`).toString('base64url')}`;
      await expect(journal.getEventsAfter(forged, 5)).rejects.toMatchObject(bad);
      const { nextCursor } = await journal.getEventsAfter(undefined, 1);
      const executionId = executionOf(journal);
      await pool.query('DELETE FROM hankweave_events WHERE execution_id = $1', [executionId]);
      await pool.query('DELETE FROM hankweave_journals WHERE execution_id = $1', [executionId]);
      const again = new EventJournal(new PgEventStorage({ pool, executionId }));
      await again.appendMany([infoEvent(5), infoEvent(6)]);
      await expect(again.getEventsAfter(nextCursor, 5)).rejects.toMatchObject(bad);
    });

    it('keeps a cursor valid for another instance of the same execution', async () => {
      const journal = await open();
      const stored = await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const { nextCursor } = await journal.getEventsAfter(undefined, 2);
      const other = new EventJournal(
        new PgEventStorage({ pool, executionId: executionOf(journal) }),
      );
      expect((await other.getEventsAfter(nextCursor, 5)).events).toEqual(stored.slice(2));
    });
  });

  describe('initialize()', () => {
    it('fails with JOURNAL_OPEN_FAILED when the server cannot be reached', async () => {
      const nowhere = new pg.Pool({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
      const journal = new EventJournal(new PgEventStorage({ pool: nowhere, executionId: 'x' }));
      await expect(journal.initialize()).rejects.toMatchObject({ code: 'JOURNAL_OPEN_FAILED' });
      await nowhere.end();
    });

    it('refuses a database whose journal schema is newer than this package', async () => {
      await newer.pool.query(
        'CREATE TABLE hankweave_schema (component text PRIMARY KEY, version integer NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())',
      );
      await newer.pool.query("INSERT INTO hankweave_schema VALUES ('journal', 99)");
      const journal = new EventJournal(new PgEventStorage({ pool: newer.pool, executionId: 'x' }));
      const error = await journal.initialize().catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'JOURNAL_OPEN_FAILED',
        details: { code: 'POSTGRES_SCHEMA_TOO_NEW' },
      });
    });

    it('creates the schema once when journals of several pools open at the same time', async () => {
      // Separate pools: each process of a fleet creates the tables on its own.
      const pools = Array.from(
        { length: 4 },
        () => new pg.Pool({ connectionString: race.url, max: 1 }),
      );
      try {
        await Promise.all(
          pools.map((each, i) =>
            new PgEventStorage({ pool: each, executionId: `e${i}` }).initialize(),
          ),
        );
        const { rows } = await race.pool.query(
          "SELECT version FROM hankweave_schema WHERE component = 'journal'",
        );
        expect(rows).toEqual([{ version: 1 }]);
      } finally {
        await Promise.all(pools.map((each) => each.end()));
      }
    });
  });
});

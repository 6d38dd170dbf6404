import { EventJournal } from '@hankweave/journal';
import { infoEvent } from '@hankweave/journal/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../test/use-database.js';
import { encodeJournalCursor } from './journal-cursor.js';
import { READ_AFTER, READ_PAGE, READ_RECENT, SELECT_JOURNAL } from './journal-sql.js';
import { PgEventStorage } from './pg-event-storage.js';

const { pool } = await useDatabase('journal_scale');

const MILLION = 1_000_000;
const BIG = 'scale-big';

// The line JSON.stringify gives infoEvent(n) with a fixed id, built by the server: a million
// events in a few seconds, where a million appends through the client would take a minute. Speed
// is the bench's subject (bench/); this file checks the access paths.
const LINE = `format('{"id":"evt_%s","type":"info","timestamp":"2025-01-15T14:30:00.000Z","data":{"message":"event %s"}}', lpad(to_hex(g), 20, '0'), g)`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The executed plan of one of the storage's own statements, as a flat list of nodes. */
async function explain(text: string, values: unknown[]) {
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
    values,
  );
  const root = (rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan;
  const nodes = nodesOf(root);
  return {
    nodes,
    scans: nodes.filter((node) => node['Relation Name'] !== undefined),
    blocks: (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0),
  };
}

/** Every table is reached through its primary key; no node scans a whole table. */
function expectIndexOnly(plan: Awaited<ReturnType<typeof explain>>) {
  expect(plan.nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
  for (const scan of plan.scans) {
    expect(scan['Node Type']).toMatch(/^Index (Only )?Scan$/);
    expect(scan['Index Name']).toMatch(/_pkey$/);
  }
}

describe('a journal of a million events', () => {
  let journal: EventJournal;

  beforeAll(async () => {
    journal = new EventJournal(new PgEventStorage({ pool, executionId: BIG }));
    await journal.initialize();
    await pool.query(
      `INSERT INTO hankweave_events (execution_id, seq, line)
       SELECT $1, g, ${LINE} FROM generate_series(1, $2::int) g`,
      [BIG, MILLION],
    );
    await pool.query(
      `UPDATE hankweave_journals SET event_count = $2,
         byte_length = (SELECT sum(octet_length(line) + 1) FROM hankweave_events WHERE execution_id = $1)
       WHERE execution_id = $1`,
      [BIG, MILLION],
    );
    // A fleet's database: many other executions, small and empty, beside the big one.
    await pool.query(
      `INSERT INTO hankweave_journals (execution_id, cursor_key)
       SELECT 'other-' || g, 'key' FROM generate_series(1, 5000) g`,
    );
    await pool.query(
      `INSERT INTO hankweave_events (execution_id, seq, line)
       SELECT 'other-' || (g % 50 + 1), g / 50 + 1, ${LINE} FROM generate_series(0, 49999) g`,
    );
    await pool.query('ANALYZE hankweave_journals; ANALYZE hankweave_events');
  }, 60_000);

  it('counts, tails, pages and appends through the API', async () => {
    expect(await journal.getTotalEvents()).toBe(MILLION);
    const recent = await journal.getMostRecentEvents(50);
    expect(recent.totalEvents).toBe(MILLION);
    expect(recent.events.map((event) => event.data)).toEqual(
      Array.from({ length: 50 }, (_, i) => ({ message: `event ${MILLION - 49 + i}` })),
    );
    // A cursor into the middle, signed as the storage signs them (paging there would read 500k).
    const { rows } = await pool.query(
      'SELECT cursor_key FROM hankweave_journals WHERE execution_id = $1',
      [BIG],
    );
    const middle = encodeJournalCursor(rows[0].cursor_key, BIG, 500_000);
    const page = await journal.getEventsAfter(middle, 3);
    expect(page.events.map((event) => event.data)).toEqual([
      { message: 'event 500001' },
      { message: 'event 500002' },
      { message: 'event 500003' },
    ]);
    const added = await journal.append(infoEvent(7));
    expect(await journal.getTotalEvents()).toBe(MILLION + 1);
    const newest = await journal.getMostRecentEvents(2);
    expect(newest.events.map((event) => event.data)).toEqual([
      { message: `event ${MILLION}` },
      added.data,
    ]);
  }, 30_000);

  it('counts with one primary-key lookup', async () => {
    const plan = await explain(SELECT_JOURNAL, [BIG]);
    expectIndexOnly(plan);
    expect(plan.scans.map((scan) => scan['Relation Name'])).toEqual(['hankweave_journals']);
    expect(plan.blocks).toBeLessThan(10);
  });

  it('reads the newest 50 as a range of 50 index entries', async () => {
    const plan = await explain(READ_RECENT, [BIG, 50]);
    expectIndexOnly(plan);
    const events = plan.scans.find((scan) => scan['Relation Name'] === 'hankweave_events');
    expect(events?.['Actual Rows']).toBe(50);
    expect(plan.blocks).toBeLessThan(50);
  });

  it('reads a page after a cursor in the middle as a range of the page size', async () => {
    const plan = await explain(READ_AFTER, [BIG, 654_321, 100]);
    expectIndexOnly(plan);
    const events = plan.scans.find((scan) => scan['Relation Name'] === 'hankweave_events');
    expect(events?.['Actual Rows']).toBe(100);
    expect(plan.blocks).toBeLessThan(50);
  });

  it('streams in keyset pages: each page is one range of the index', async () => {
    const plan = await explain(READ_PAGE, [BIG, 999_000, MILLION, 1000]);
    expectIndexOnly(plan);
    expect(plan.scans[0]?.['Actual Rows']).toBe(1000);
  });
});

// Per-event append cost of the Postgres journal against the file journal, in the same run, on the
// same disk. Run: pnpm --filter @hankweave/postgres bench (builds first). Not part of `pnpm test`.
//
// Both sides are durable: the file journal fsyncs (`fsync` mode: each acknowledged append, or
// group, is fsynced; `batched`: the default mode, fsync per batch), and the Postgres server is
// started with fsync=on (unlike the test server), so a commit waits for its WAL flush.
// HANKWEAVE_BENCH_POSTGRES_URL=postgres://... measures an existing server instead.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileJournal, EventJournal } from '@hankweave/journal';
import pg from 'pg';
import { PgEventStorage } from '../dist/index.js';
import { startPostgres } from '../dist/testing.js';

const quick = process.argv.includes('--quick');
const SEQUENTIAL = quick ? 200 : 1_000;
const IN_FLIGHT_TOTAL = quick ? 5_000 : 20_000;
const BULK = quick ? 20_000 : 100_000;

/** A realistic event: ~300 bytes, like the assistant.action lines of a real journal. */
const event = (i) => ({
  type: 'assistant.action',
  timestamp: new Date(1_736_000_000_000 + i * 10).toISOString(),
  data: {
    codonId: `codon-${i % 12}`,
    action: 'thinking',
    content: `Step ${i}: reading the data and deciding what to write next. `.repeat(3),
  },
});

/** µs per event of one workload on one journal. */
const workloads = {
  'one caller, await each append': {
    count: SEQUENTIAL,
    async run(journal, count) {
      for (let i = 0; i < count; i++) await journal.append(event(i));
    },
  },
  '256 appends in flight': {
    count: IN_FLIGHT_TOTAL,
    async run(journal, count) {
      const inFlight = [];
      for (let i = 0; i < count; i++) {
        inFlight.push(journal.append(event(i)));
        if (inFlight.length === 256) await Promise.all(inFlight.splice(0));
      }
      await Promise.all(inFlight);
    },
  },
  [`appendMany of ${BULK.toLocaleString('en-US')}`]: {
    count: BULK,
    async run(journal, count) {
      await journal.appendMany(Array.from({ length: count }, (_, i) => event(i)));
    },
  },
};

async function measure(open, workload) {
  const journal = await open();
  await journal.append(event(-1)); // warm-up: open files, prepare statements
  const start = performance.now();
  await workload.run(journal, workload.count);
  const micros = ((performance.now() - start) * 1000) / workload.count;
  await journal.close();
  return micros;
}

const external = process.env.HANKWEAVE_BENCH_POSTGRES_URL;
const server = external
  ? undefined
  : await startPostgres({ settings: { fsync: 'on', full_page_writes: 'on' } });
const pool = new pg.Pool({ connectionString: external ?? server.url, max: 4 });
const root = await mkdtemp(join(tmpdir(), 'pg-journal-bench-'));
const rows = [];
try {
  const { rows: settings } = await pool.query(
    "SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc, version() AS version",
  );
  const info = settings[0];
  for (const [name, workload] of Object.entries(workloads)) {
    const pgMicros = await measure(async () => {
      const journal = new EventJournal(new PgEventStorage({ pool, executionId: randomUUID() }));
      await journal.initialize();
      return journal;
    }, workload);
    for (const durability of ['fsync', 'batched']) {
      const fileMicros = await measure(
        () => createFileJournal({ hankweaveDir: join(root, randomUUID()), durability }),
        workload,
      );
      rows.push({ name, durability, fileMicros, pgMicros });
    }
  }
  const cell = (micros) => `${micros.toFixed(1)} µs`;
  const lines = [
    `Postgres journal vs file journal, per-event append cost (${info.version.split(',')[0]}, fsync=${info.fsync}, synchronous_commit=${info.sc}; node ${process.version})`,
    '',
    '| workload | file journal mode | file µs/event | postgres µs/event | postgres / file |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.durability} | ${cell(row.fileMicros)} | ${cell(row.pgMicros)} | ${(row.pgMicros / row.fileMicros).toFixed(2)}× |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await pool.end();
  await server?.stop();
  await rm(root, { recursive: true, force: true });
}

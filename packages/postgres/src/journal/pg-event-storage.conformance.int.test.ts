import { randomUUID } from 'node:crypto';
import type { JournalBackend } from '@hankweave/journal';
import { describeJournalConformance } from '@hankweave/journal/testing';
import { useDatabase } from '../../test/use-database.js';
import { PgEventStorage } from './pg-event-storage.js';

const { pool } = await useDatabase('journal_conformance');

// Each test gets an execution of its own in one shared database: the isolation a fleet relies on.
describeJournalConformance({
  name: 'postgres',
  create: async () => new PgEventStorage({ pool, executionId: `conformance-${randomUUID()}` }),
  reopen: async (previous: JournalBackend) =>
    new PgEventStorage({ pool, executionId: (previous as PgEventStorage).executionId }),
});

// Tiny pages and chunks: readAll, the raw stream and multi-statement appends cross their seams.
describeJournalConformance({
  name: 'postgres (pageSize 3, chunkEvents 4)',
  create: async () =>
    new PgEventStorage({ pool, executionId: randomUUID(), pageSize: 3, chunkEvents: 4 }),
  reopen: async (previous: JournalBackend) =>
    new PgEventStorage({
      pool,
      executionId: (previous as PgEventStorage).executionId,
      pageSize: 3,
      chunkEvents: 4,
    }),
});

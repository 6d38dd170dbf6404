import { afterEach, beforeEach, describe } from 'vitest';
import { EventJournal } from '../event-journal.js';
import type { JournalBackend } from '../journal-backend.js';
import { appendCases } from './cases/append.js';
import { capacityCases } from './cases/capacity.js';
import { closeCases } from './cases/close.js';
import { durabilityCases } from './cases/durability.js';
import { getAllEventsCases } from './cases/get-all-events.js';
import { getEventsAfterCases } from './cases/get-events-after.js';
import { getMostRecentEventsCases } from './cases/get-most-recent-events.js';
import { getTotalEventsCases } from './cases/get-total-events.js';
import { queryPatternCases } from './cases/query-patterns.js';
import { streamAllEventsCases } from './cases/stream-all-events.js';
import { validationCases } from './cases/validation.js';
import type { ConformanceContext, JournalHarness } from './conformance-context.js';

/**
 * Registers the conformance suite of `JournalBackend` for one backend: order, ids, validation,
 * recent reads, paging, streaming, counts, closing, capacity (when `capabilities.maxEvents` is
 * set), durability (when `harness.reopen` is given) and every query pattern of seed 003. Call it
 * at the top level of a test file; it uses vitest's explicit imports, not globals.
 */
export function describeJournalConformance(harness: JournalHarness): void {
  describe(`JournalBackend conformance: ${harness.name}`, () => {
    let journal: EventJournal;
    let created: JournalBackend[] = [];

    const open = async (backend: JournalBackend): Promise<EventJournal> => {
      created.push(backend);
      const opened = new EventJournal(backend);
      await opened.initialize();
      return opened;
    };

    beforeEach(async () => {
      journal = await open(await harness.create());
    });

    afterEach(async () => {
      for (const backend of created) {
        await backend.close().catch(() => undefined);
      }
      for (const backend of new Set(created)) await harness.destroy?.(backend);
      created = [];
    });

    const context: ConformanceContext = {
      harness,
      journal: () => journal,
      async reopen() {
        if (!harness.reopen) throw new Error(`${harness.name} has no reopen()`);
        await journal.close();
        journal = await open(await harness.reopen(journal.backend));
        return journal;
      },
      async createOther() {
        return open(await harness.create());
      },
    };

    appendCases(context);
    validationCases(context);
    getMostRecentEventsCases(context);
    getAllEventsCases(context);
    getTotalEventsCases(context);
    streamAllEventsCases(context);
    getEventsAfterCases(context);
    closeCases(context);
    capacityCases(context);
    durabilityCases(context);
    queryPatternCases(context);
  });
}

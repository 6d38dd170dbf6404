import { describeJournalConformance } from '../../testing/journal-conformance.js';
import { MemoryEventStorage } from './memory-event-storage.js';

describeJournalConformance({ name: 'memory', create: async () => new MemoryEventStorage() });

describeJournalConformance({
  name: 'memory (unbounded)',
  create: async () => new MemoryEventStorage({ maxEvents: Number.POSITIVE_INFINITY }),
});

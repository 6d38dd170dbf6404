import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import type { JournalBackend } from '../../journal-backend.js';
import { describeJournalConformance } from '../../testing/journal-conformance.js';
import type { Durability } from './append-queue.js';
import { FileEventStorage } from './file-event-storage.js';

const dirs = new WeakMap<JournalBackend, TempDir>();

function harness(durability: Durability) {
  return {
    name: `file (${durability})`,
    async create() {
      const dir = await makeTempDir('journal-conformance-');
      const backend = new FileEventStorage({ hankweaveDir: dir.path, durability });
      dirs.set(backend, dir);
      return backend;
    },
    async reopen(previous: JournalBackend) {
      const dir = dirs.get(previous) as TempDir;
      const backend = new FileEventStorage({ hankweaveDir: dir.path, durability });
      dirs.set(backend, dir);
      return backend;
    },
    async destroy(backend: JournalBackend) {
      const dir = dirs.get(backend);
      await dir?.cleanup();
    },
  };
}

describeJournalConformance(harness('batched'));
describeJournalConformance(harness('fsync'));
describeJournalConformance(harness('none'));

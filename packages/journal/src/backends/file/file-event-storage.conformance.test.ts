import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JournalBackend } from '../../journal-backend.js';
import { describeJournalConformance } from '../../testing/journal-conformance.js';
import type { Durability } from './append-queue.js';
import { FileEventStorage } from './file-event-storage.js';

const dirs = new WeakMap<JournalBackend, string>();

function harness(durability: Durability) {
  return {
    name: `file (${durability})`,
    async create() {
      const hankweaveDir = await mkdtemp(join(tmpdir(), 'journal-conformance-'));
      const backend = new FileEventStorage({ hankweaveDir, durability });
      dirs.set(backend, hankweaveDir);
      return backend;
    },
    async reopen(previous: JournalBackend) {
      const hankweaveDir = dirs.get(previous) as string;
      const backend = new FileEventStorage({ hankweaveDir, durability });
      dirs.set(backend, hankweaveDir);
      return backend;
    },
    async destroy(backend: JournalBackend) {
      const dir = dirs.get(backend);
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

describeJournalConformance(harness('batched'));
describeJournalConformance(harness('fsync'));
describeJournalConformance(harness('none'));

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryEventStorage } from '@hankweave/journal';
import type { HankweaveState } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueueWorld, type QueueWorld, waitForState } from '../test/queue-world.js';
import { submitHank } from './submit-hank.js';

/** A memory backend that remembers what was appended, and whether it was closed. */
class RecordingStorage extends MemoryEventStorage {
  readonly ids: string[] = [];
  closed = false;
  override async append(events: Parameters<MemoryEventStorage['append']>[0]): Promise<void> {
    this.ids.push(...events.map((event) => event.id));
    await super.append(events);
  }
  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
  }
}

describe('FleetBackends', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('copies every journaled event, in order, and the state after each codon', async () => {
    const journals = new Map<string, RecordingStorage>();
    const states: { executionId: string; state: HankweaveState }[] = [];
    const metas: Record<string, unknown>[] = [];
    await world.startWorker(
      { delayMs: 10 },
      {
        journal: (executionId) => {
          const storage = new RecordingStorage();
          journals.set(executionId, storage);
          return storage;
        },
        stateMirror: {
          upsert: async (executionId, state, meta) => {
            states.push({ executionId, state });
            metas.push(meta ?? {});
          },
        },
      },
    );
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('mirrored', 2),
      data: world.dataDir,
    });
    await waitForState(world.queue, jobId, ['completed']);
    const journalFile = join(world.baseDir, 'jobs', jobId, '.hankweave', 'events', 'events.jsonl');
    const fileIds = readFileSync(journalFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const copy = journals.get(jobId);
    expect(copy?.ids).toEqual(fileIds);
    expect(copy?.closed).toBe(true);
    // One upsert when the run starts, one per codon, and the final one.
    expect(states.map((entry) => entry.executionId)).toEqual([jobId, jobId, jobId, jobId]);
    expect(states[0]?.state.runs[0]?.status).toBe('running');
    expect(states.at(-1)?.state.runs[0]?.status).toBe('completed');
    // What a fleet view shows beside the state: where the execution is and what it runs.
    expect(metas.at(-1)).toMatchObject({
      jobId,
      executionDir: join(world.baseDir, 'jobs', jobId),
      hankName: 'mirrored',
      exitCode: 0,
    });
  });
});

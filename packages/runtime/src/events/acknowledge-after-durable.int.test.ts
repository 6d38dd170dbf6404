import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveState } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeWorld, startFakeWorld } from '../testing/fake-world.js';

const worlds: FakeWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.dispose();
});

/** state.json as it is on disk right now (what a process killed at this moment leaves). */
const onDisk = (executionDir: string): HankweaveState =>
  JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));

describe('acknowledge after durable', () => {
  it('delivers codon.completed and checkpoint transitions only once state.json records them', async () => {
    const world = await startFakeWorld({ codons: 3 });
    worlds.push(world);
    const { runtime } = world;
    const violations: string[] = [];
    let completions = 0;
    let checkpoints = 0;
    // Listeners run synchronously at delivery: reading the disk here sees what a crash would.
    runtime.on((event) => {
      if (event.type === 'codon.completed') {
        completions++;
        const record = onDisk(runtime.executionDir)
          .runs.flatMap((run) => run.codons)
          .findLast((codon) => codon.codonId === event.data.codonId);
        if (record?.status !== 'completed')
          violations.push(`${event.data.codonId} completed, on disk ${record?.status}`);
      }
      if (event.type === 'state.transition' && event.data.transitionType === 'CheckpointCreated') {
        checkpoints++;
        const sha = (event.data.transition.data as { sha: string }).sha;
        if (!JSON.stringify(onDisk(runtime.executionDir)).includes(sha))
          violations.push(`checkpoint ${sha} announced before state.json holds it`);
      }
    });
    for (const codon of ['a', 'b', 'c']) {
      await runtime.command({ type: 'codon.next' });
      await waitFor(() => completions === ['a', 'b', 'c'].indexOf(codon) + 1);
      await waitFor(() => runtime.phase === 'idle');
    }
    expect(completions).toBe(3);
    expect(checkpoints).toBeGreaterThanOrEqual(3);
    expect(violations).toEqual([]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codon, writes } from '../../test/hank-builders.js';
import { asked, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// A rollback into a parallel branch on the real agent with the scripted model (issue 36): only
// that branch's later codons are undone and run again; what the sibling branch did stays (its
// codon is not asked again), and the block merges both once more.

describe('a rollback to a branch codon', () => {
  let world: TestWorld;
  afterAll(() => world?.close());

  it('undoes only that branch after the codon; the sibling branch is not run again', async () => {
    world = await makeWorld({
      hank: {
        meta: { name: 'parallel-rollback', version: '1.0.0' },
        hank: [
          codon('plan'),
          {
            type: 'parallel',
            id: 'review',
            name: 'Review',
            // One at a time: the sibling's codon starts after l1 and l2 have finished, so a
            // thread cut in start order would undo it too.
            maxConcurrency: 1,
            branches: [
              { id: 'left', items: [codon('l1'), codon('l2')] },
              { id: 'right', items: [codon('r1')] },
            ],
          },
          codon('report'),
        ],
      },
      script: {
        conversations: ['plan', 'l1', 'l2', 'r1', 'report'].map((id) => writes(id)),
      },
    });
    const first = runtimeFor(world);
    await first.runtime.start();
    expect((await first.runtime.finished).exitCode).toBe(0);
    const executionDir = first.runtime.executionDir;
    const before = Object.fromEntries(
      ['l1', 'l2', 'r1', 'report'].map((id) => [id, asked(world, id)]),
    );

    const rollback = runtimeFor(world, { executionDir, autostart: false });
    await rollback.runtime.start();
    await rollback.runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'l1', checkpointType: 'completed' },
    });
    const started = rollback.events.find((event) => event.type === 'rollback.started');
    // What the rollback announces as undone: l2, the merge and report, never the sibling's r1.
    expect(started?.data.codonsToProcess).toEqual(['report', 'review', 'l2']);
    await rollback.runtime.close();
    // agentRoot is back at the block's base: none of the branches' files.
    const agentRoot = join(executionDir, 'agentRoot');
    expect(['l1.txt', 'l2.txt', 'r1.txt'].map((file) => existsSync(join(agentRoot, file)))).toEqual(
      [false, false, false],
    );

    const resumed = runtimeFor(world, { executionDir });
    await resumed.runtime.start();
    expect((await resumed.runtime.finished).exitCode).toBe(0);
    const again = (id: string) => asked(world, id) - (before[id] ?? 0);
    expect({ l1: again('l1'), l2: again('l2'), r1: again('r1') }).toEqual({
      l1: 0,
      l2: 2,
      r1: 0,
    });
    expect(again('report')).toBeGreaterThan(0);
    const completed = resumed.events
      .filter((event) => event.type === 'codon.completed')
      .map((event) => event.data.codonId);
    expect(completed).toEqual(['l2', 'report']);
    // The merge brings both branches back: r1's file comes from its kept checkpoint.
    for (const file of ['plan.txt', 'l1.txt', 'l2.txt', 'r1.txt', 'report.txt']) {
      expect(readFileSync(join(agentRoot, file), 'utf8'), file).toBe(`${file.slice(0, -4)}\n`);
    }
  }, 120_000);
});

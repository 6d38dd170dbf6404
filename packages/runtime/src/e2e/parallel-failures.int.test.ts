import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codon, writes } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';

// A branch's failure that stops the run stops every branch at once (issue 36): a sibling's running
// codon is interrupted and starts nothing more; the block does not merge. A resume runs the failed
// codon and the interrupted one again, never the branch that had finished.

describe('a failure inside a parallel block', () => {
  it('stops every branch at once; a resume re-runs only the failed and interrupted codons', async () => {
    const world = await makeWorld({
      hank: {
        meta: { name: 'parallel-failures', version: '1.0.0' },
        hank: [
          {
            type: 'parallel',
            id: 'work',
            name: 'Work',
            branches: [
              {
                id: 'on-bad',
                items: [
                  codon('bad', {
                    onFailure: 'abort',
                    // Fails until the file exists: the first run fails, the resume does not.
                    // Late enough that the fine branch's agent has finished even on a loaded
                    // CI machine (6 s was not, once).
                    rigSetup: [
                      {
                        type: 'command',
                        command: { run: 'test -f "$HOME/fixed" || { sleep 20; exit 1; }' },
                      },
                    ],
                  }),
                ],
              },
              {
                id: 'on-slow',
                items: [
                  // Still busy when the other branch fails, in the first run only.
                  codon('slow', {
                    rigSetup: [
                      { type: 'command', command: { run: 'test -f "$HOME/fixed" || sleep 90' } },
                    ],
                  }),
                  codon('later'),
                ],
              },
              { id: 'on-fine', items: [codon('fine')] },
            ],
          },
          codon('report'),
        ],
      },
      script: {
        conversations: [
          writes('bad'),
          writes('slow'),
          writes('later'),
          writes('fine'),
          writes('report'),
        ],
      },
    });
    const first = runtimeFor(world);
    await first.runtime.start();
    const exit = await first.runtime.finished;
    expect(exit.reason).toBe('codon failure');
    const afterFailure = first.runtime.getState().runs.flatMap((run) => run.codons);
    const statusOf = (records: typeof afterFailure, id: string) =>
      records.filter((record) => record.codonId === id).map((record) => record.status);
    expect(statusOf(afterFailure, 'bad')).toEqual(['failed']);
    expect(statusOf(afterFailure, 'fine')).toEqual(['completed']);
    // The slow branch's codon was cut short by the failure, and its next codon never started.
    const slow = afterFailure.find((record) => record.codonId === 'slow');
    expect(slow).toMatchObject({ status: 'failed', failureReason: { interrupted: true } });
    expect(statusOf(afterFailure, 'later')).toEqual([]);
    expect(statusOf(afterFailure, 'work')).toEqual([]);

    writeFileSync(join(String(world.env.HOME), 'fixed'), '');
    const resumed = runtimeFor(world, { executionDir: first.runtime.executionDir });
    await resumed.runtime.start();
    const end = await resumed.runtime.finished;
    await world.close();
    expect(end.exitCode).toBe(0);
    // Runs are newest first: oldest first reads in the order things happened.
    const all = [...resumed.runtime.getState().runs].reverse().flatMap((run) => run.codons);
    expect(statusOf(all, 'fine')).toEqual(['completed']);
    expect(statusOf(all, 'bad')).toEqual(['failed', 'completed']);
    expect(statusOf(all, 'slow')).toEqual(['failed', 'completed']);
    expect(statusOf(all, 'later')).toEqual(['completed']);
    expect(statusOf(all, 'work')).toEqual(['completed']);
    expect(statusOf(all, 'report')).toEqual(['completed']);
  }, 120_000);
});

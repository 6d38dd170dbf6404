import { describe, expect, it } from 'vitest';
import { codon } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';

// A hank budget is shared by a parallel block's branches (issue 36): branches running at once
// count each other's live spend, so a spent budget stops every branch within a turn, rather
// than each branch spending the whole remainder it saw when it started.

// Three paid turns 400 ms apart, then the end: enough for the branches' turns to interleave.
const TURN = { inputTokens: 10_000, outputTokens: 1_000 };
/** At most what one such turn costs on sonnet ($3 per million input tokens, $15 per million output). */
const TURN_DOLLARS = 0.045;
const spending = (id: string) => ({
  match: { marker: `TASK_${id.toUpperCase()}` },
  turns: [
    ...[1, 2, 3].map((n) => ({
      content: [{ write: { path: `${id}-${n}.txt`, content: `${n}\n` } }],
      usage: TURN,
      delayMs: 400,
    })),
    { content: [{ text: 'Done.' }], usage: { inputTokens: 10, outputTokens: 1 } },
  ],
});

describe('a hank budget shared by parallel branches', () => {
  it('stops every branch once the branches together spent it, within a turn each, before the merge', async () => {
    const branches = ['a', 'b', 'c'];
    const world = await makeWorld({
      hank: {
        meta: { name: 'parallel-budget', version: '1.0.0' },
        overrides: { budget: { maxDollars: 0.2 } },
        hank: [
          {
            type: 'parallel',
            id: 'work',
            name: 'Work',
            branches: branches.map((branch) => ({
              id: `on-${branch}`,
              items: [codon(`${branch}1`), codon(`${branch}2`)],
            })),
          },
        ],
      },
      script: { conversations: branches.flatMap((b) => [spending(`${b}1`), spending(`${b}2`)]) },
    });
    const { runtime } = runtimeFor(world);
    await runtime.start();
    const exit = await runtime.finished;
    await world.close();
    expect(exit.reason).toBe('budget exceeded');
    const records = runtime.getState().runs.flatMap((run) => run.codons) as {
      codonId: string;
      status: string;
      finalCost?: number;
      partialCost?: number;
      budgetExceeded?: { used: number } | null;
      failureReason?: { message: string };
    }[];
    const story = JSON.stringify(records);
    // The block did not merge: the run stopped inside it.
    expect(records.map((record) => record.codonId)).not.toContain('work');
    // A codon was stopped by what the branches spent together, before it spent the budget alone.
    const pooled = records.find(
      (record) => (record.budgetExceeded?.used ?? 0) > 0.2 && (record.finalCost ?? 0) < 0.2,
    );
    expect(pooled, story).toBeDefined();
    // Every branch running when the budget ran out says the budget stopped it, or ended on its
    // own: none is recorded as interrupted by a shutdown (nobody asked for one), whichever branch
    // noticed first (its watchdog, or the gate before another branch's next codon).
    for (const record of records) {
      expect(record.failureReason?.message ?? '', story).not.toMatch(/Interrupted/);
      expect(record.status, story).toBe('completed');
    }
    expect(records.filter((record) => record.budgetExceeded).length, story).toBeGreaterThan(0);
    // At most one turn per branch past the limit (the turns that crossed it): without the pool
    // each first codon would spend its three turns (up to 0.405 in all).
    const spent = records.reduce(
      (sum, record) => sum + (record.finalCost ?? record.partialCost ?? 0),
      0,
    );
    expect(spent).toBeLessThanOrEqual(0.2 + 3 * TURN_DOLLARS + 0.001);
  }, 120_000);
});

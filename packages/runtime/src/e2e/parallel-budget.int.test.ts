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

/** The codon records of a run, as these tests read them. */
interface Recorded {
  codonId: string;
  status: string;
  finalCost?: number;
  partialCost?: number;
  claudeSessionId?: string;
  budgetExceeded?: { used: number } | null;
  failureReason?: { message: string; interrupted?: boolean; retriable: boolean };
}

/** Runs `world`'s hank to its end, which must be the spent budget; its records, and them as text. */
async function runToBudgetStop(world: Awaited<ReturnType<typeof makeWorld>>) {
  const { runtime } = runtimeFor(world);
  await runtime.start();
  const exit = await runtime.finished;
  await world.close();
  expect(exit.reason).toBe('budget exceeded');
  const records = runtime.getState().runs.flatMap((run) => run.codons) as Recorded[];
  return { records, story: JSON.stringify(records) };
}

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
    const { records, story } = await runToBudgetStop(world);
    // The block did not merge: the run stopped inside it.
    expect(records.map((record) => record.codonId)).not.toContain('work');
    // A codon was stopped by what the branches spent together, before it spent the budget alone.
    const pooled = records.find(
      (record) => (record.budgetExceeded?.used ?? 0) > 0.2 && (record.finalCost ?? 0) < 0.2,
    );
    expect(pooled, story).toBeDefined();
    // Every branch whose agent was at work when the budget ran out says the budget stopped it,
    // or ended on its own, whichever branch noticed first (its watchdog, or the gate before
    // another branch's next codon). A branch codon whose agent had not yet reported its session
    // spent nothing: the budget interrupts it (a resume runs it again), as the next test pins.
    for (const record of records) {
      if (record.failureReason?.interrupted) {
        expect(record.failureReason.message, story).toMatch(/spent budget/);
        expect(record.finalCost ?? 0, story).toBe(0);
        continue;
      }
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

  // Before the fix, the budget stop "completed" a codon that had no agent at work (preparing:
  // its rig command ran), which the state machine refuses: the runtime failed with a StateError
  // and the run ended forced. It came up as a race in the test above (a branch's next codon
  // between its agent's start and its session), 2 runs in 9 on a warm process.
  it('interrupts a branch codon whose rig still runs when the other branches spend the budget', async () => {
    const world = await makeWorld({
      hank: {
        meta: { name: 'parallel-budget-rig', version: '1.0.0' },
        overrides: { budget: { maxDollars: 0.05 } },
        hank: [
          {
            type: 'parallel',
            id: 'work',
            name: 'Work',
            branches: [
              // a2's budget gate finds the budget spent and stops the run, b1 included.
              { id: 'spends', items: [codon('a1'), codon('a2')] },
              {
                id: 'prepares',
                items: [
                  codon('b1', {
                    rigSetup: [{ type: 'command', command: { run: 'sleep 30' } }],
                  }),
                ],
              },
            ],
          },
        ],
      },
      script: { conversations: [spending('a1'), spending('a2'), spending('b1')] },
    });
    const { records, story } = await runToBudgetStop(world);
    expect(
      records.find((record) => record.codonId === 'a1'),
      story,
    ).toMatchObject({
      status: 'completed',
      budgetExceeded: expect.anything(),
    });
    const prepared = records.find((record) => record.codonId === 'b1');
    expect(prepared, story).toMatchObject({
      status: 'failed',
      failureReason: { interrupted: true, retriable: true },
    });
    expect(prepared?.failureReason?.message).toMatch(/spent budget/);
    expect(prepared?.claudeSessionId).toBeUndefined();
  }, 120_000);
});

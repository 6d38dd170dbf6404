import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { type FakeAgentScript, FakeHarness } from '@hankweave/harness/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CreateRuntimeOptions, createRuntime } from '../index.js';

// Budgets end to end (reference §1.7, §4.8) on the FakeHarness: real log writer and parser, real
// prices. Each turn uses 1000 input + 200 output tokens of claude-sonnet-4-5 ($3 / $15 per
// million): exactly $0.006 a turn.
const TURN_COST = 0.006;
const MODEL = 'claude-sonnet-4-5';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('budget-e2e-');
  mkdirSync(join(dir.path, 'data'));
  writeFileSync(join(dir.path, 'data', 'notes.txt'), 'user data');
});
afterEach(() => dir.cleanup());

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id === 'later' ? 'should not run' : `Codon ${id}`,
  model: MODEL,
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});
const turns = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    text: `step ${index}`,
    usage: { inputTokens: 1000, outputTokens: 200 },
  }));

async function runHank(
  hank: { items: unknown[]; budget?: Record<string, unknown> },
  options: Partial<CreateRuntimeOptions> & { script?: (codonId: string) => FakeAgentScript } = {},
) {
  const { script, ...rest } = options;
  const harness = new FakeHarness({
    lineDelayMs: 40,
    script: (start) => script?.(start.codonId) ?? { scenario: { turns: turns(5) } },
  });
  const events: HankweaveEvent[] = [];
  const runtime = createRuntime({
    hank: {
      meta: { name: 'budgets', version: '1.0.0' },
      ...(hank.budget ? { overrides: { budget: hank.budget } } : {}),
      hank: hank.items,
    },
    hankDir: dir.path,
    dataPath: join(dir.path, 'data'),
    executionBaseDir: join(dir.path, 'executions'),
    startNew: true,
    harness,
    headless: true,
    killGraceMs: 200,
    ...rest,
  });
  runtime.on((event) => events.push(event));
  await runtime.start();
  const exit = await runtime.finished;
  const records = runtime.getState().runs.flatMap((run) => run.codons);
  return { exit, events, records, started: harness.starts.map((start) => start.codonId) };
}

const completed = (events: HankweaveEvent[]) =>
  events.flatMap((event) => (event.type === 'codon.completed' ? [event.data] : []));
const summaryOf = (events: HankweaveEvent[]) =>
  events.find((event) => event.type === 'budget.summary')?.data;
const transitionTypes = (events: HankweaveEvent[]) =>
  events.flatMap((event) =>
    event.type === 'state.transition' ? [event.data.transitionType as string] : [],
  );

describe('codon budgets', () => {
  it('maxDollars + complete: the agent is stopped within the turn that crossed it, the hank goes on', async () => {
    const { exit, events, records, started } = await runHank({
      items: [codon('a', { budget: { maxDollars: 0.01, onExceeded: 'complete' } }), codon('b')],
    });
    expect(exit.exitCode).toBe(0);
    expect(started).toEqual(['a', 'b']);
    const [a, b] = completed(events);
    expect(a).toMatchObject({ codonId: 'a', success: true, exitStatus: { type: 'success' } });
    expect(a?.budgetExceeded).toMatchObject({ currency: 'cost', limit: 0.01 });
    // Stopped at the turn that crossed it: two turns, not five.
    expect(a?.budgetExceeded?.used).toBeCloseTo(2 * TURN_COST, 9);
    // What the agent spent before the kill took effect: at most one turn more (the bench measures
    // this on the real agent; here lines come 40 ms apart).
    expect(a?.cost).toBeGreaterThanOrEqual(2 * TURN_COST - 1e-9);
    expect(a?.cost).toBeLessThanOrEqual(3 * TURN_COST + 1e-9);
    expect(b).toMatchObject({ codonId: 'b', success: true });
    expect(b?.budgetExceeded).toBeUndefined();
    expect(records[0]).toMatchObject({
      codonId: 'a',
      status: 'completed',
      exitCode: 0,
      budgetExceeded: { currency: 'cost', limit: 0.01 },
    });
    const summary = summaryOf(events);
    expect(summary?.rows.map((row) => [row.codonId, row.status])).toEqual([
      ['a', 'exceeded'],
      ['b', 'completed'],
    ]);
    expect(summary?.rows[0]?.budget).toMatchObject({ maxDollars: 0.01 });
    expect(summary?.totals.actualDollars).toBeCloseTo((a?.cost ?? 0) + 5 * TURN_COST, 9);
  });

  it('maxDollars + fail: the codon fails, not retried, the run fails, later codons do not run', async () => {
    const { exit, events, records, started } = await runHank({
      items: [
        codon('a', {
          budget: { maxDollars: 0.01, onExceeded: 'fail' },
          onFailure: 'retry',
          retryConfig: { maxAttempts: 3, delayMs: 0 },
        }),
        codon('later'),
      ],
    });
    expect(exit.exitCode).toBe(1);
    expect(started).toEqual(['a']);
    expect(completed(events)[0]).toMatchObject({
      codonId: 'a',
      success: false,
      budgetExceeded: { currency: 'cost', limit: 0.01 },
      failureReason: { type: 'unknown', retriable: false },
    });
    expect(completed(events)[0]?.failureReason?.message).toMatch(/^Budget exceeded/);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'failed', budgetExceeded: { currency: 'cost' } });
    // budget.summary comes before the run's end.
    const types = events.map((event) =>
      event.type === 'state.transition' ? (event.data.transitionType as string) : event.type,
    );
    expect(types.indexOf('budget.summary')).toBeGreaterThan(-1);
    expect(types.indexOf('budget.summary')).toBeLessThan(types.indexOf('RunFailed'));
  });

  it('maxOutputTokens: the first turn over the cap stops the agent', async () => {
    const { events, started } = await runHank({
      items: [codon('a', { budget: { maxOutputTokens: 5 } }), codon('b')],
    });
    expect(started).toEqual(['a', 'b']);
    expect(completed(events)[0]).toMatchObject({
      success: true,
      budgetExceeded: { currency: 'outputTokens', limit: 5, used: 200 },
    });
  });

  it('maxContextTokens: a turn whose context is over the cap stops the agent', async () => {
    const { events } = await runHank({ items: [codon('a', { budget: { maxContextTokens: 5 } })] });
    expect(completed(events)[0]).toMatchObject({
      success: true,
      budgetExceeded: { currency: 'contextTokens', limit: 5, used: 1200 },
    });
  });

  it('maxTimeSeconds: an agent that keeps going is stopped when the time is up', async () => {
    const begun = Date.now();
    const { events, exit } = await runHank(
      { items: [codon('a', { budget: { maxTimeSeconds: 1, onExceeded: 'fail' } })] },
      { script: () => ({ scenario: { turns: turns(1), result: 'none' }, hang: true }) },
    );
    expect(exit.exitCode).toBe(1);
    expect(completed(events)[0]).toMatchObject({
      success: false,
      budgetExceeded: { currency: 'duration', limit: 1 },
    });
    expect(completed(events)[0]?.budgetExceeded?.used).toBeGreaterThanOrEqual(1);
    expect(Date.now() - begun).toBeLessThan(15_000);
  });
});

describe('container budgets', () => {
  it('a spent shared hank budget with fail: the first codon fails and "should not run" does not run', async () => {
    const { exit, events, started } = await runHank({
      items: [codon('a'), codon('later')],
      budget: { maxDollars: 0.001, onExceeded: 'fail' },
    });
    expect(exit.exitCode).toBe(1);
    expect(started).toEqual(['a']);
    expect(completed(events)[0]).toMatchObject({
      success: false,
      budgetExceeded: { currency: 'cost', limit: 0.001 },
    });
    expect(completed(events)[0]?.budgetExceeded?.used).toBeCloseTo(TURN_COST, 9);
  });

  it('a spent shared hank budget with complete: the hank stops, the rest is not run, exit 0', async () => {
    const { exit, events, started } = await runHank({
      items: [codon('a'), codon('later'), codon('after')],
      budget: { maxDollars: 0.001 },
    });
    expect(started).toEqual(['a']);
    expect(exit).toEqual({ exitCode: 0, reason: 'budget exceeded' });
    expect(completed(events)).toHaveLength(1);
    const messages = events.flatMap((event) =>
      event.type === 'info' ? [event.data.message as string] : [],
    );
    expect(messages.some((message) => /Budget spent .*2 codon\(s\) not run/.test(message))).toBe(
      true,
    );
    expect(transitionTypes(events)).toContain('RunCompleted');
    expect(summaryOf(events)).toMatchObject({
      ceiling: { maxDollars: 0.001 },
      allocation: 'shared',
      totals: { budgetDollars: 0.001 },
    });
  });

  it('later codons get what remains of a shared budget', async () => {
    // 0.02 in all: a spends its 2 turns (0.012) and finishes under it.
    const { events, started } = await runHank(
      { items: [codon('a'), codon('b')], budget: { maxDollars: 0.02 } },
      { script: (id) => ({ scenario: { turns: turns(id === 'a' ? 2 : 5) } }) },
    );
    expect(started).toEqual(['a', 'b']);
    const [a, b] = completed(events);
    expect(a?.budgetExceeded).toBeUndefined();
    // b may spend 0.02 − 0.012 = 0.008: its second turn (0.012) crosses it.
    expect(b?.budgetExceeded?.limit).toBeCloseTo(0.008, 9);
    expect(b?.budgetExceeded?.used).toBeCloseTo(2 * TURN_COST, 9);
  });

  it('proportional shares: each codon gets its share of the whole, bounded by what remains', async () => {
    const { events, started } = await runHank(
      {
        items: [codon('a'), codon('b'), codon('c')],
        budget: { maxDollars: 0.04, allocation: 'proportional', shares: { a: 0.5, b: 0.25 } },
      },
      { script: (id) => ({ scenario: { turns: turns(id === 'a' ? 1 : id === 'b' ? 2 : 5) } }) },
    );
    expect(started).toEqual(['a', 'b', 'c']);
    const [a, b, c] = completed(events);
    expect(a?.budgetExceeded).toBeUndefined();
    // b: 0.25 × 0.04 = 0.01 → stopped at 0.012.
    expect(b?.budgetExceeded?.limit).toBeCloseTo(0.01, 9);
    // c has no share: the unallocated 0.25 of 0.04 = 0.01, within what remains (0.04 − 0.018).
    // Unlike proportional-strict, a's unspent share does not evaporate.
    expect(c?.budgetExceeded?.limit).toBeCloseTo(0.01, 9);
    expect(summaryOf(events)?.allocation).toBe('proportional');
  });

  it('proportional-strict shares: each codon gets its share, unspent share evaporates', async () => {
    const { events, started } = await runHank(
      {
        items: [codon('a'), codon('b'), codon('c')],
        budget: {
          maxDollars: 0.04,
          allocation: 'proportional-strict',
          shares: { a: 0.5, b: 0.25 },
        },
      },
      // b's second and last turn crosses its share: what it spends is exact whenever the kill lands.
      { script: (id) => ({ scenario: { turns: turns(id === 'a' ? 1 : id === 'b' ? 2 : 5) } }) },
    );
    expect(started).toEqual(['a', 'b', 'c']);
    const [a, b, c] = completed(events);
    expect(a?.budgetExceeded).toBeUndefined();
    // b: 0.25 × 0.04 = 0.01 → stopped at 0.012.
    expect(b?.budgetExceeded?.limit).toBeCloseTo(0.01, 9);
    // c: a counts its 0.02 share (spent 0.006), b its 0.012 → 0.04 − 0.032 = 0.008 (< its 0.01).
    expect(c?.budgetExceeded?.limit).toBeCloseTo(0.008, 9);
    const summary = summaryOf(events);
    expect(summary?.allocation).toBe('proportional-strict');
    expect(summary?.rows.map((row) => row.status)).toEqual(['completed', 'exceeded', 'exceeded']);
  });

  it('a loop budget stops the loop (50 iterations asked, the budget allows two)', async () => {
    const loop = {
      type: 'loop',
      id: 'review',
      name: 'review',
      terminateOn: { type: 'iterationLimit', limit: 50 },
      budget: { maxDollars: 0.01 },
      codons: [codon('r', { onFailure: 'ignore' })],
    };
    const { exit, events, started } = await runHank(
      { items: [loop, codon('after')] },
      { script: () => ({ scenario: { turns: turns(1) } }) },
    );
    expect(exit.exitCode).toBe(0);
    // r#0 spends 0.006; r#1 may spend 0.004 and crosses it; the loop ends; `after` runs.
    expect(started).toEqual(['r#0', 'r#1', 'after']);
    expect(completed(events)[1]?.budgetExceeded).toMatchObject({ currency: 'cost' });
    const ended = events.filter((event) => event.type === 'loop.iteration.completed');
    expect(ended.at(-1)?.data).toMatchObject({ isFinal: true, terminationReason: 'failure' });
  });

  it('a loop budget spent mid-iteration drops the rest of the loop; the hank goes on', async () => {
    const loop = {
      type: 'loop',
      id: 'review',
      name: 'review',
      terminateOn: { type: 'iterationLimit', limit: 5 },
      budget: { maxDollars: 0.005 },
      codons: [codon('x'), codon('y')],
    };
    const { exit, events, started, records } = await runHank(
      { items: [loop, codon('after')] },
      { script: () => ({ scenario: { turns: turns(1) } }) },
    );
    expect(exit.exitCode).toBe(0);
    // x#0 crosses the loop's 0.005: y#0 and every later iteration are dropped.
    expect(started).toEqual(['x#0', 'after']);
    expect(records.map((record) => record.codonId)).toEqual(['x#0', 'after']);
    const ended = events.filter((event) => event.type === 'loop.iteration.completed');
    expect(ended.map((event) => event.data)).toEqual([
      expect.objectContaining({
        loopId: 'review',
        iteration: 0,
        isFinal: true,
        terminationReason: 'failure',
      }),
    ]);
  });

  it('--max-cost overrides the hank budget (and a runtime budget)', async () => {
    const { events, started } = await runHank(
      { items: [codon('a'), codon('later')], budget: { maxDollars: 100 } },
      { maxCost: 0.005, budget: { maxDollars: 50 } },
    );
    expect(started).toEqual(['a']);
    expect(completed(events)[0]?.budgetExceeded).toMatchObject({
      currency: 'cost',
      limit: 0.005,
    });
    expect(summaryOf(events)?.ceiling).toEqual({ maxDollars: 0.005 });
  });

  it('refuses a ceiling that is not a positive number', () => {
    expect(() => createRuntime({ hank: {}, dataPath: dir.path, maxCost: 0 })).toThrow(
      expect.objectContaining({ code: 'RUNTIME_INVALID_OPTION' }),
    );
  });
});

import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { FakeHarness } from '@hankweave/harness/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreateRuntimeOptions,
  createRuntime,
  executionLayout,
  RuntimeError,
} from '../index.js';

// Budgets in a replay: a codon stopped by its budget is stopped again, at the same spend. The
// recording comes from the FakeHarness (real log writer, parser and prices): each turn costs
// $0.006 (1000 input + 200 output tokens of claude-sonnet-4-5).
const MODEL = 'claude-sonnet-4-5';
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('replay-budget-');
  mkdirSync(join(dir.path, 'data'));
  writeFileSync(join(dir.path, 'data', 'notes.txt'), 'user data');
});
afterEach(() => dir.cleanup());

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: MODEL,
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});
const turns = Array.from({ length: 5 }, (_, index) => ({
  text: `step ${index}`,
  usage: { inputTokens: 1000, outputTokens: 200 },
}));

async function run(items: unknown[], options: Partial<CreateRuntimeOptions>) {
  const events: HankweaveEvent[] = [];
  const runtime = createRuntime({
    hank: { meta: { name: 'budgets', version: '1.0.0' }, hank: items },
    hankDir: dir.path,
    dataPath: join(dir.path, 'data'),
    executionBaseDir: join(dir.path, 'executions'),
    headless: true,
    killGraceMs: 200,
    env: { ...process.env, HANKWEAVE_REPLAY_MAX_DELAY_MS: '0', HANKWEAVE_REPLAY_SPEED_MS: '0' },
    ...options,
  });
  runtime.on((event) => events.push(event));
  await runtime.start();
  const exit = await runtime.finished;
  const records = runtime.getState().runs.flatMap((r) => r.codons);
  return { runtime, exit, events, records };
}
const record = () =>
  new FakeHarness({
    lineDelayMs: 40,
    script: { scenario: { turns } },
  }) as CreateRuntimeOptions['harness'];
/** What a codon record says it spent (completed: finalCost; failed: partialCost). */
const costOf = (record: object) => {
  const { finalCost, partialCost } = record as { finalCost?: number; partialCost?: number };
  return finalCost ?? partialCost;
};
const decisions = (events: HankweaveEvent[]) =>
  events.flatMap((event) =>
    event.type === 'codon.completed'
      ? [
          {
            codonId: event.data.codonId,
            success: event.data.success,
            cost: event.data.cost,
            budgetExceeded: event.data.budgetExceeded,
          },
        ]
      : [],
  );
/** The budget summary without wall times (a replay is paced, not timed like the recording). */
const summary = (events: HankweaveEvent[]) =>
  JSON.parse(
    JSON.stringify(events.find((event) => event.type === 'budget.summary')?.data ?? null),
    (key, value) => (key === 'timeSeconds' || key === 'actualTimeSeconds' ? undefined : value),
  );

describe('replay with budgets', () => {
  it('stops again the codons their budget stopped (complete and fail), at the recorded cost', async () => {
    const items = [
      codon('a', { budget: { maxDollars: 0.01, onExceeded: 'complete' } }),
      codon('b', { budget: { maxOutputTokens: 500, onExceeded: 'fail' } }),
      codon('never'),
    ];
    const recorded = await run(items, { harness: record(), startNew: true });
    expect(recorded.exit.exitCode).not.toBe(0);
    const expected = decisions(recorded.events);
    expect(expected.map((d) => [d.codonId, d.success, d.budgetExceeded?.currency])).toEqual([
      ['a', true, 'cost'],
      ['b', false, 'outputTokens'],
    ]);
    // Paced (a 15 ms floor per line, from the variable): the watchdog stops the replayed agent
    // mid-feed, and the replay still spends what the recording spent before its kill.
    const replay = await run(items, {
      replay: { executionDir: recorded.runtime.executionDir },
      env: { ...process.env, HANKWEAVE_REPLAY_MAX_DELAY_MS: '50', HANKWEAVE_REPLAY_SPEED_MS: '15' },
    });
    expect(replay.exit).toEqual(recorded.exit);
    expect(decisions(replay.events)).toEqual(expected);
    expect(replay.records.map((r) => [r.codonId, r.status, costOf(r), r.budgetExceeded])).toEqual(
      recorded.records.map((r) => [r.codonId, r.status, costOf(r), r.budgetExceeded]),
    );
    expect(summary(replay.events)).toEqual(summary(recorded.events));
  }, 60_000);

  it('fails a codon with no recording, naming it and the directory searched', async () => {
    const recorded = await run([codon('a'), codon('b')], { harness: record(), startNew: true });
    expect(recorded.exit.exitCode).toBe(0);
    const copy = join(dir.path, 'copy');
    cpSync(recorded.runtime.executionDir, copy, { recursive: true });
    const { runsDir } = executionLayout(copy);
    const [runId] = recorded.runtime.getState().runs.map((r) => r.runId);
    rmSync(join(runsDir, runId as string, 'b-claude.log'));
    const replay = await run([codon('a'), codon('b')], { replay: { executionDir: copy } });
    expect(replay.exit.exitCode).toBe(1);
    const b = replay.records.find((r) => r.codonId === 'b') as
      | { status: string; failureReason?: { message?: string } }
      | undefined;
    expect(b).toMatchObject({ status: 'failed' });
    expect(b?.failureReason?.message).toContain('codon b');
    expect(b?.failureReason?.message).toContain(runsDir);
    expect(replay.records.find((r) => r.codonId === 'a')).toMatchObject({ status: 'completed' });
  }, 60_000);

  it('refuses to write into the recorded execution, a missing directory, or a second harness', async () => {
    const recorded = await run([codon('a')], { harness: record(), startNew: true });
    const base = {
      hank: { meta: { name: 'x', version: '1.0.0' }, hank: [codon('a')] },
      dataPath: join(dir.path, 'data'),
    };
    const executionDir = recorded.runtime.executionDir;
    const invalid = (options: Partial<CreateRuntimeOptions>) => {
      try {
        createRuntime({ ...base, ...options });
      } catch (error) {
        return RuntimeError.is(error, 'RUNTIME_INVALID_OPTION') ? error.details : error;
      }
      return 'accepted';
    };
    expect(invalid({ replay: { executionDir }, executionDir })).toMatchObject({ option: 'replay' });
    expect(
      invalid({ replay: { executionDir }, executionDir: join(executionDir, 'agentRoot') }),
    ).toMatchObject({ option: 'replay' });
    expect(invalid({ replay: { executionDir: join(dir.path, 'nowhere') } })).toMatchObject({
      option: 'replay',
    });
    expect(invalid({ replay: { executionDir: join(dir.path, 'data') } })).toMatchObject({
      option: 'replay',
    });
    expect(invalid({ replay: { executionDir }, harness: record() })).toMatchObject({
      option: 'replay',
    });
  }, 60_000);
});

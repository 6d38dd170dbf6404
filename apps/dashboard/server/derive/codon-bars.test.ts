import { codonCost } from '@hankweave/state';
import { describe, expect, it } from 'vitest';
import { fixtureState } from '../../test/ui/fixture-state.js';
import { codonBars, planBlocks, planLoops } from './codon-bars.js';
import { codonWindow } from './codon-window.js';

describe('codonBars()', () => {
  it('makes one bar per record, oldest run first, and numbers the attempts of a retried codon', async () => {
    const state = await fixtureState('retried');
    const bars = codonBars(state);
    const run = state.runs[0];
    expect(bars.map((bar) => `${bar.codonId}:${bar.status}:${bar.attempt}`)).toEqual([
      'observe:completed:1',
      'summarize:completed:1',
      'polish-pass#0:failed:1',
      'polish-pass#0:completed:2',
      'polish-pass#1:completed:1',
    ]);
    expect(bars.map((bar) => bar.key)).toEqual(
      run?.codons.map((_record, index) => `${run.runId}~${index}`),
    );
    const failed = bars[2];
    expect(failed?.failure).toMatchObject({ type: 'api-error' });
    expect(failed?.failure?.message).toMatch(/500/);
    expect(failed?.checkpoints.map((checkpoint) => checkpoint.type)).toEqual(['error']);
  });

  it('carries the reason of a codon its condition skipped', async () => {
    const state = await fixtureState('retried');
    const run = state.runs[0];
    const last = run?.codons.at(-1);
    if (!run || !last) throw new Error('fixture: a run with codons');
    run.codons[run.codons.length - 1] = {
      ...last,
      status: 'skipped',
      skippedDuring: 'preparing',
      skippedBy: 'condition',
      skipReason: 'when (x exists) does not hold: x does not exist',
    } as typeof last;
    expect(codonBars(state).at(-1)).toMatchObject({
      status: 'skipped',
      skipReason: 'when (x exists) does not hold: x does not exist',
    });
  });

  it("carries a parallel block's place from the plan: branch, resolver or merge", async () => {
    const state = await fixtureState('retried');
    // As if `observe` ran in branch `left` of block `review` and `summarize` were its merge.
    const [observe, summarize] = state.executionPlan;
    if (!observe || !summarize) throw new Error('fixture: a plan');
    observe.parallelContext = { blockId: 'review', role: 'branch', branchId: 'left' };
    summarize.parallelContext = { blockId: 'review', role: 'merge' };
    const [first, second, third] = codonBars(state);
    expect(first?.parallel).toEqual({ blockId: 'review', role: 'branch', branchId: 'left' });
    expect(second?.parallel).toEqual({ blockId: 'review', role: 'merge' });
    expect(third?.parallel).toBeUndefined();
  });

  it('carries names, models, loops, tokens, costs and checkpoints from the plan and the records', async () => {
    const state = await fixtureState('retried');
    const [observe, , , , last] = codonBars(state);
    const record = state.runs[0]?.codons[0];
    if (record?.status !== 'completed') throw new Error('fixture: observe is completed');
    expect(observe).toMatchObject({
      name: 'Observe the data',
      model: 'sonnet',
      startTime: record.startTime,
      endTime: record.endTime,
      costUsd: codonCost(record),
      tokens: {
        input: record.finalTokens.inputTokens,
        output: record.finalTokens.outputTokens,
        cacheRead: record.finalTokens.cacheReadTokens,
        cacheWrite: record.finalTokens.cacheCreationTokens,
      },
      extensions: 0,
      checkpoints: [
        { type: 'rig-setup', sha: record.rigSetupCheckpoint },
        { type: 'completed', sha: record.completionCheckpoint },
      ],
    });
    expect(observe?.loop).toBeUndefined();
    expect(last?.loop).toEqual({ loopId: 'polish', iteration: 1 });
  });

  it('reads a state of the original runtime: a running record has no end and counts its live cost', async () => {
    const state = await fixtureState('original-runtime');
    const bars = codonBars(state);
    expect(bars.map((bar) => `${bar.codonId}:${bar.status}:${bar.attempt}`)).toEqual([
      'observe:completed:1',
      'loop-codon#0:failed:1',
      'loop-codon#0:running:2',
    ]);
    const running = bars[2];
    expect(running?.endTime).toBeUndefined();
    const record = state.runs[0]?.codons[2];
    expect(running?.costUsd).toBe(record ? codonCost(record) : Number.NaN);
    expect(running?.loop).toEqual({ loopId: 'loop-codon', iteration: 0 });
  });
});

describe('planBlocks()', () => {
  it("lists the plan's parallel blocks with their branch ids, in plan order", async () => {
    const state = await fixtureState('retried');
    const at = (index: number) => state.executionPlan[index];
    const [first, second, third] = [at(0), at(1), at(2)];
    if (!first || !second || !third) throw new Error('fixture: a plan of three entries');
    first.parallelContext = { blockId: 'review', role: 'branch', branchId: 'right' };
    second.parallelContext = { blockId: 'review', role: 'branch', branchId: 'left' };
    third.parallelContext = { blockId: 'review', role: 'merge' };
    expect(planBlocks(state)).toEqual([{ blockId: 'review', branches: ['right', 'left'] }]);
    expect(planBlocks(await fixtureState('retried'))).toEqual([]);
  });
});

describe('planLoops()', () => {
  it('counts the iterations each loop of the plan holds', async () => {
    expect(planLoops(await fixtureState('retried'))).toEqual([{ loopId: 'polish', iterations: 2 }]);
    expect(planLoops(await fixtureState('failed'))).toEqual([{ loopId: 'polish', iterations: 1 }]);
  });
});

describe('codonWindow()', () => {
  it('runs from one attempt of a codon to the start of its next attempt', async () => {
    const state = await fixtureState('retried');
    const [, , failed, retried] = codonBars(state);
    const first = codonWindow(state, failed?.key ?? '');
    const second = codonWindow(state, retried?.key ?? '');
    expect(first?.codonId).toBe('polish-pass#0');
    expect(first?.fromMs).toBe(Number.NEGATIVE_INFINITY);
    expect(first?.toMs).toBe(Date.parse(retried?.startTime ?? ''));
    expect(second?.fromMs).toBe(Date.parse(retried?.startTime ?? ''));
    expect(second?.toMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('takes a codon id for its newest record: a retried codon, a loop iteration, a loop codon', async () => {
    const state = await fixtureState('retried');
    const bars = codonBars(state);
    const newest = (match: (codonId: string) => boolean) =>
      bars.filter((bar) => match(bar.codonId)).at(-1)?.key;
    const keyOf = (window: ReturnType<typeof codonWindow>) =>
      window ? `${window.placed.run.runId}~${window.placed.index}` : undefined;
    expect(keyOf(codonWindow(state, 'polish-pass#0'))).toBe(newest((id) => id === 'polish-pass#0'));
    expect(keyOf(codonWindow(state, 'polish-pass'))).toBe(
      newest((id) => id.startsWith('polish-pass#')),
    );
    expect(keyOf(codonWindow(state, 'observe'))).toBe(newest((id) => id === 'observe'));
    expect(codonWindow(state, 'polish')).toBeUndefined();
  });

  it('is undefined for a key that names no record', async () => {
    const state = await fixtureState('retried');
    expect(codonWindow(state, 'nope~0')).toBeUndefined();
    expect(codonWindow(state, `${state.runs[0]?.runId}~99`)).toBeUndefined();
  });
});

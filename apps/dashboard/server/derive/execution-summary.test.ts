import { totalCost } from '@hankweave/state';
import type { RuntimeLock } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { fixtureState, type StateFixture } from '../../test/ui/fixture-state.js';
import { codonBars } from './codon-bars.js';
import { costsOf } from './costs.js';
import { executionStatus, executionSummary } from './execution-summary.js';
import { runNodes } from './run-nodes.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');

async function summaryOf(name: StateFixture, lock?: RuntimeLock) {
  const state = await fixtureState(name);
  const summary = executionSummary(
    { id: name, dir: `/x/${name}`, hankName: 'hello-hank', state, meta: undefined, lock },
    NOW,
  );
  return { state, summary };
}

describe('executionSummary()', () => {
  it('summarises a finished execution with a retry: completed, its cost, its codons', async () => {
    const { state, summary } = await summaryOf('retried');
    const run = state.runs[0];
    expect(summary).toMatchObject({
      id: 'retried',
      status: 'completed',
      live: false,
      startedAt: run?.startTime,
      endedAt: run?.endTime,
      durationMs: Date.parse(run?.endTime ?? '') - Date.parse(run?.startTime ?? ''),
      costUsd: totalCost(state),
      codons: { completed: 4, failed: 0, skipped: 0, planned: 4 },
      runs: 1,
      models: ['sonnet'],
    });
  });

  it('says failed for a failed run, partial after a rollback, crashed for a dead running run', async () => {
    expect((await summaryOf('failed')).summary).toMatchObject({
      status: 'failed',
      codons: { completed: 1, failed: 1, skipped: 0, planned: 3 },
    });
    const rolledBack = await summaryOf('rolled-back');
    expect(rolledBack.summary.status).toBe('partial');
    expect(rolledBack.summary.runs).toBe(3);
    // The thread after the rollback holds observe and summarize only.
    expect(rolledBack.summary.codons.completed).toBe(2);
    expect((await summaryOf('original-runtime')).summary.status).toBe('crashed');
  });

  it('is running, with its duration up to now, while a live runtime holds the lock', async () => {
    const state = await fixtureState('original-runtime');
    const run = state.runs[0];
    const lock: RuntimeLock = {
      pid: 1,
      runId: run?.runId ?? null,
      startTime: run?.startTime ?? '',
      lastHeartbeat: NOW.toISOString(),
    };
    const { summary } = await summaryOf('original-runtime', lock);
    expect(summary.status).toBe('running');
    expect(summary.live).toBe(true);
    expect(summary.endedAt).toBe(NOW.toISOString());
    expect(summary.durationMs).toBe(NOW.getTime() - Date.parse(run?.startTime ?? ''));
  });

  it('is empty without a state', () => {
    expect(executionStatus(undefined, false)).toBe('empty');
    const summary = executionSummary(
      { id: 'e', dir: '/e', hankName: 'h', state: undefined, meta: undefined, lock: undefined },
      NOW,
    );
    expect(summary).toMatchObject({ status: 'empty', costUsd: 0, runs: 0, models: [] });
    expect(summary.durationMs).toBeUndefined();
  });
});

describe('runNodes()', () => {
  it('hangs the continuations of a rollback under the run they continue, with their reasons', async () => {
    const state = await fixtureState('rolled-back');
    const [root, ...others] = runNodes(state);
    expect(others).toEqual([]);
    const fresh = state.runs[2];
    expect(root).toMatchObject({ runId: fresh?.runId, reason: 'fresh', codonCount: 4 });
    expect(root?.costUsd).toBeCloseTo(totalCost(state), 10);
    const children = root?.children ?? [];
    expect(children.map((child) => child.reason)).toEqual(['continue', 'rollback']);
    expect(children[1]?.from).toMatchObject({ runId: fresh?.runId, afterCodon: 'summarize' });
    const summarize = fresh?.codons[1];
    expect(children[1]?.from?.checkpointSha).toBe(
      summarize?.status === 'completed' ? summarize.completionCheckpoint : undefined,
    );
  });
});

describe('costsOf()', () => {
  it('adds every record per codon (retries count) and per plan model, totalling totalCost', async () => {
    const state = await fixtureState('retried');
    const costs = costsOf(state);
    expect(costs.totalUsd).toBe(totalCost(state));
    expect(costs.byCodon.map((codon) => `${codon.codonId}:${codon.runs}`)).toEqual([
      'observe:1',
      'summarize:1',
      'polish-pass#0:2',
      'polish-pass#1:1',
    ]);
    const sum = costs.byCodon.reduce((total, codon) => total + codon.costUsd, 0);
    expect(sum).toBeCloseTo(costs.totalUsd, 10);
    const bars = codonBars(state);
    expect(costs.byModel).toEqual([
      {
        model: 'sonnet',
        costUsd: expect.closeTo(costs.totalUsd, 10),
        inputTokens: bars.reduce((total, bar) => total + bar.tokens.input, 0),
        outputTokens: bars.reduce((total, bar) => total + bar.tokens.output, 0),
      },
    ]);
  });
});

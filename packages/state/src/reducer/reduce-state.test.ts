import {
  type CodonExecution,
  emptyState,
  type HankweaveState,
  type StateTransition,
  stateSchema,
} from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import {
  codonLifecycle,
  METADATA_FOR,
  makeTransition as t,
  tokens,
} from '../testing/transitions.js';
import { reduceState, replayTransitions } from './reduce-state.js';
import { endedByCrash } from './run-transitions.js';

const run = (...transitions: StateTransition[]): HankweaveState =>
  replayTransitions(emptyState(), [t.runStarted('r1'), ...transitions]);
const record = (state: HankweaveState, index = -1): CodonExecution =>
  state.runs[0]?.codons.at(index) as CodonExecution;
const keys = (value: object): string[] => Object.keys(value).sort();

describe('reduceState()', () => {
  describe('codon records follow seed 000 field by field', () => {
    it('gives a running codon the fields of the RunningCodon example', () => {
      const state = run(...codonLifecycle('r1', 'research', 'running'));
      expect(keys(record(state))).toEqual(
        keys({
          codonId: 0,
          startTime: 0,
          status: 0,
          rigSetupCheckpoint: 0,
          claudePid: 0,
          claudeSessionId: 0,
          claudeLogPath: 0,
          currentCost: 0,
          currentTokens: 0,
          assistantMessageCount: 0,
          sentinels: 0,
        }),
      );
    });

    it('gives a completed codon the fields of the CompletedCodon example, final = current', () => {
      const state = run(...codonLifecycle('r1', 'research', 'completed', 0.0312));
      const completed = record(state);
      expect(keys(completed)).toEqual(
        keys({
          codonId: 0,
          startTime: 0,
          status: 0,
          endTime: 0,
          claudeSessionId: 0,
          claudeLogPath: 0,
          exitCode: 0,
          finalCost: 0,
          finalTokens: 0,
          resultMessageReceived: 0,
          rigSetupCheckpoint: 0,
          completionCheckpoint: 0,
          sentinels: 0,
        }),
      );
      expect(completed).toMatchObject({
        finalCost: 0.0312,
        finalTokens: tokens(10, 5),
        completionCheckpoint: 'done0001',
        sentinels: { executed: [expect.objectContaining({ id: 'narrator' })], totalCost: 0.001 },
      });
    });

    it('gives a failed codon the fields of the FailedCodon example, with partial costs', () => {
      const failed = record(run(...codonLifecycle('r1', 'research', 'failed', 0.0156)));
      expect(keys(failed)).toEqual(
        keys({
          codonId: 0,
          startTime: 0,
          status: 0,
          endTime: 0,
          failedDuring: 0,
          claudePid: 0,
          claudeSessionId: 0,
          claudeLogPath: 0,
          exitCode: 0,
          failureReason: 0,
          partialCost: 0,
          partialTokens: 0,
          rigSetupCheckpoint: 0,
          errorCheckpoint: 0,
          sentinels: 0,
        }),
      );
      expect(failed).toMatchObject({ partialCost: 0.0156, errorCheckpoint: 'err0001' });
    });

    it('gives a skipped codon the fields of the SkippedCodon example', () => {
      const skipped = record(run(...codonLifecycle('r1', 'research', 'skipped', 0.0089)));
      expect(keys(skipped)).toEqual(
        keys({
          codonId: 0,
          startTime: 0,
          status: 0,
          endTime: 0,
          skippedDuring: 0,
          claudePid: 0,
          claudeSessionId: 0,
          claudeLogPath: 0,
          partialCost: 0,
          partialTokens: 0,
          assistantMessageCount: 0,
          rigSetupCheckpoint: 0,
          skipCheckpoint: 0,
          sentinels: 0,
        }),
      );
    });

    it('keeps why a condition skipped a codon, and nothing of the kind for a plain skip', () => {
      const skipped = record(
        run(
          t.codonStarted('r1', 'fix'),
          t.to('r1', 'fix', 'preparing', 'skipped', {
            skippedDuring: 'preparing',
            skippedBy: 'condition',
            skipReason: 'when (x exists) does not hold: x does not exist',
            conditionOf: 'codon',
          }),
        ),
      );
      expect(skipped).toMatchObject({
        status: 'skipped',
        skippedBy: 'condition',
        skipReason: 'when (x exists) does not hold: x does not exist',
        conditionOf: 'codon',
      });
      const plain = record(run(...codonLifecycle('r1', 'research', 'skipped', 0.0089)));
      expect(plain).not.toHaveProperty('skippedBy');
      expect(plain).not.toHaveProperty('skipReason');
    });

    it('records no cost and no sentinels for a codon that failed while preparing', () => {
      const failed = record(
        run(
          t.codonStarted('r1', 'research'),
          t.to('r1', 'research', 'preparing', 'failed', {
            ...METADATA_FOR.failed,
            failedDuring: 'preparing',
          }),
        ),
      );
      expect(failed).not.toHaveProperty('partialCost');
      expect(failed).not.toHaveProperty('sentinels');
      expect(failed).toMatchObject({ status: 'failed', failedDuring: 'preparing' });
    });
  });

  describe('costs', () => {
    const live = codonLifecycle('r1', 'a', 'running', 0.5);

    it('adds increments and replaces on CostsUpdated', () => {
      const state = run(...live, t.costsIncremented('r1', 'a', 0.25, tokens(1, 1)), {
        type: 'CostsUpdated',
        data: { runId: 'r1', codonId: 'a', currentCost: 2, currentTokens: tokens(7, 7) },
      });
      expect(record(state)).toMatchObject({ currentCost: 2, currentTokens: tokens(7, 7) });
      const incremented = run(...live, t.costsIncremented('r1', 'a', 0.25, tokens(1, 1)));
      expect(record(incremented)).toMatchObject({
        currentCost: 0.75,
        currentTokens: tokens(11, 6),
      });
    });

    const finalCost = (finalCostValue: number): StateTransition => ({
      type: 'CodonFinalCostSet',
      data: { runId: 'r1', codonId: 'a', finalCost: finalCostValue, finalTokens: tokens(9, 9) },
    });

    it('lets CodonFinalCostSet overwrite the running totals, which completion then copies', () => {
      const state = run(
        ...live,
        finalCost(3),
        t.to('r1', 'a', 'running', 'completed', METADATA_FOR.completed),
      );
      expect(record(state)).toMatchObject({ finalCost: 3, finalTokens: tokens(9, 9) });
    });

    it('lets CodonFinalCostSet overwrite final and partial costs after the fact', () => {
      const completed = run(...codonLifecycle('r1', 'a', 'completed'), finalCost(4));
      expect(record(completed)).toMatchObject({ finalCost: 4 });
      const failed = run(...codonLifecycle('r1', 'a', 'failed'), finalCost(5));
      expect(record(failed)).toMatchObject({ partialCost: 5, partialTokens: tokens(9, 9) });
    });

    it('rejects CodonFinalCostSet before the agent runs', () => {
      expect(() => run(...codonLifecycle('r1', 'a', 'initializing'), finalCost(1))).toThrow(
        expect.objectContaining({ code: 'STATE_INVALID_TRANSITION' }),
      );
    });
  });

  describe('checkpoints, plan and counters', () => {
    it('records each checkpoint type in its field; exit lands in skipCheckpoint', () => {
      const checkpoint = (
        checkpointType: 'rig-setup' | 'completed' | 'error' | 'skipped' | 'exit',
        sha: string,
      ): StateTransition => ({
        type: 'CheckpointCreated',
        data: { runId: 'r1', codonId: 'a', checkpointType, sha, branch: 'run-r1' },
      });
      const state = run(
        t.codonStarted('r1', 'a'),
        checkpoint('rig-setup', 'r'),
        checkpoint('completed', 'c'),
        checkpoint('error', 'e'),
        checkpoint('exit', 'x'),
      );
      expect(record(state)).toMatchObject({
        rigSetupCheckpoint: 'r',
        completionCheckpoint: 'c',
        errorCheckpoint: 'e',
        skipCheckpoint: 'x',
      });
    });

    it('records a merge checkpoint (issue 36) as the completion checkpoint', () => {
      const state = run(t.codonStarted('r1', 'a'), {
        type: 'CheckpointCreated',
        data: { runId: 'r1', codonId: 'a', checkpointType: 'merge', sha: 'm', branch: 'run-r1' },
      });
      expect(record(state)).toMatchObject({ completionCheckpoint: 'm' });
    });

    it('replaces the plan, sets the initial checkpoint and the counters', () => {
      const entry = { codon: { id: 'a', name: 'A' }, codonId: 'a' };
      const state = run(
        ...codonLifecycle('r1', 'a', 'running'),
        { type: 'ExecutionPlanUpdated', data: { executionPlan: [entry] } },
        { type: 'InitialCheckpointSet', data: { sha: 'init' } },
        t.messages('r1', 'a', 7),
        { type: 'ExtensionCountUpdated', data: { runId: 'r1', codonId: 'a', extensionCount: 2 } },
      );
      expect(state.executionPlan).toEqual([entry]);
      expect(state.initialCheckpoint).toBe('init');
      expect(record(state)).toMatchObject({ assistantMessageCount: 7, extensionCount: 2 });
    });
  });

  describe('runs', () => {
    it('clears currentRunId only when the current run ends', () => {
      const state = replayTransitions(emptyState(), [
        t.runStarted('a'),
        t.runStarted('b'),
        t.runCompleted('a'),
      ]);
      expect(state.currentRunId).toBe('b');
      expect(reduceState(state, t.runFailed('b')).currentRunId).toBeNull();
    });

    it('keeps a loop context given to CodonStarted', () => {
      const loopContext = { loopId: 'review-loop', iteration: 1, codonIndexInLoop: 0 };
      const state = run({
        type: 'CodonStarted',
        data: { runId: 'r1', codonId: 'review#1', startTime: 't', loopContext },
      });
      expect(record(state)).toMatchObject({ loopContext });
    });

    it("keeps a retry attempt given to CodonStarted, and a first try's record has none", () => {
      const retried = run({
        type: 'CodonStarted',
        data: { runId: 'r1', codonId: 'a', startTime: 't', retryAttempt: 3 },
      });
      expect(record(retried)).toMatchObject({ retryAttempt: 3 });
      expect(record(run(t.codonStarted('r1', 'a')))).not.toHaveProperty('retryAttempt');
    });

    it('records an exceeded context on the terminal record, and nothing when it was not', () => {
      const lifecycle = codonLifecycle('r1', 'a', 'running');
      const exceeded = run(
        ...lifecycle,
        t.to('r1', 'a', 'running', 'completed', {
          ...METADATA_FOR.completed,
          contextExceeded: true,
        }),
      );
      expect(record(exceeded)).toMatchObject({ status: 'completed', contextExceeded: true });
      const within = run(
        ...lifecycle,
        t.to('r1', 'a', 'running', 'failed', { ...METADATA_FOR.failed, contextExceeded: false }),
      );
      expect(record(within)).not.toHaveProperty('contextExceeded');
    });
  });

  describe('purity', () => {
    it('never modifies its input and shares what it does not change', () => {
      const base = replayTransitions(emptyState(), [
        t.runStarted('old'),
        t.runCompleted('old'),
        t.runStarted('r1'),
        ...codonLifecycle('r1', 'a', 'running'),
      ]);
      const snapshot = structuredClone(base);
      const next = reduceState(base, t.messages('r1', 'a', 3));
      expect(base).toEqual(snapshot);
      expect(next.runs[1]).toBe(base.runs[1]);
      expect(next.runs[0]).not.toBe(base.runs[0]);
    });

    it('produces a state that validates and survives JSON after every step of a random walk', () => {
      let seed = 42;
      const random = (n: number): number => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed % n;
      };
      let state = reduceState(emptyState(), t.runStarted('r1'));
      const order = [
        'preparing',
        'starting',
        'initializing',
        'running',
        'completing-sentinels',
      ] as const;
      for (let step = 0; step < 400; step++) {
        const codonId = `c${random(4)}`;
        const latest = state.runs[0]?.codons.findLast((codon) => codon.codonId === codonId);
        let transition: StateTransition;
        if (latest === undefined || ['completed', 'failed', 'skipped'].includes(latest.status)) {
          transition = t.codonStarted('r1', codonId);
        } else {
          const from = latest.status as (typeof order)[number];
          const choice = random(6);
          if (choice === 0)
            transition = t.to('r1', codonId, from, 'failed', {
              ...METADATA_FOR.failed,
              failedDuring: from,
            });
          else if (choice === 1)
            transition = t.to('r1', codonId, from, 'skipped', { skippedDuring: from });
          else if ((from === 'running' || from === 'completing-sentinels') && choice === 2)
            transition = t.costsIncremented('r1', codonId, 0.01);
          else if (from === 'completing-sentinels' || (from === 'running' && choice === 3))
            transition = t.to('r1', codonId, from, 'completed', METADATA_FOR.completed);
          else {
            const to = order[order.indexOf(from) + 1] as (typeof order)[number];
            transition = t.to('r1', codonId, from, to, METADATA_FOR[to] ?? {});
          }
        }
        state = reduceState(state, transition);
        expect(stateSchema.safeParse(state).success).toBe(true);
      }
      expect(JSON.parse(JSON.stringify(state))).toEqual(state);
      expect(state.runs[0]?.codons.length).toBeGreaterThan(20);
    });
  });
});

describe('endedByCrash()', () => {
  it('tells a record that crash detection ended from one that failed on its own', () => {
    const crashed = replayTransitions(emptyState(), [
      t.runStarted('r1'),
      ...codonLifecycle('r1', 'a', 'running'),
      t.runCrashed('r1'),
    ]);
    expect(endedByCrash(record(crashed))).toBe(true);
    const failed = run(...codonLifecycle('r1', 'a', 'failed'));
    expect(endedByCrash(record(failed))).toBe(false);
    expect(endedByCrash(record(run(...codonLifecycle('r1', 'a', 'completed'))))).toBe(false);
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type CodonExecution,
  type CompletedCodon,
  codonExecutionSchema,
  type FailedCodon,
  isTerminalCodonStatus,
  stateSchema,
  stateTransitionSchema,
} from '../index.js';

const completed = {
  codonId: 'research',
  startTime: '2025-01-04T12:00:00.000Z',
  status: 'completed',
  endTime: '2025-01-04T12:02:30.000Z',
  exitCode: 0,
  finalCost: 0.03,
  finalTokens: { inputTokens: 1, outputTokens: 2, cacheCreationTokens: 0, cacheReadTokens: 0 },
  resultMessageReceived: true,
  completionCheckpoint: 'def456',
  // A field the original runtime writes that the seed does not list (compatibility.md).
  budgetExceededFlag: false,
};

describe('codonExecutionSchema', () => {
  it('keeps fields it does not know when reading', () => {
    const parsed = codonExecutionSchema.parse(completed);
    expect(parsed).toMatchObject({ budgetExceededFlag: false, status: 'completed' });
  });

  it('names the missing field of a status in the error path', () => {
    const { finalCost: _, ...withoutCost } = completed;
    const result = codonExecutionSchema.safeParse(withoutCost);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['finalCost']);
  });

  it('requires what a status always has: a running codon needs its session id', () => {
    const running = {
      codonId: 'a',
      startTime: 't',
      status: 'running',
      claudePid: 1,
      claudeLogPath: 'runs/x/a-claude.log',
      currentCost: 0,
      currentTokens: {
        inputTokens: 0,
        outputTokens: 0,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
      },
      assistantMessageCount: 0,
      sentinels: { loaded: [], totalCost: 0 },
    };
    const result = codonExecutionSchema.safeParse(running);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain('claudeSessionId');
    expect(codonExecutionSchema.safeParse({ ...running, claudeSessionId: 's' }).success).toBe(true);
  });

  it('rejects an unknown status with the status path', () => {
    const result = codonExecutionSchema.safeParse({ ...completed, status: 'paused' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['status']);
  });

  it('narrows the union by status at the type level', () => {
    const codon = codonExecutionSchema.parse(completed) as CodonExecution;
    if (codon.status === 'completed') {
      expectTypeOf(codon).toEqualTypeOf<CompletedCodon>();
      expectTypeOf(codon.finalCost).toBeNumber();
    }
    if (codon.status === 'failed') {
      expectTypeOf(codon).toEqualTypeOf<FailedCodon>();
      expectTypeOf(codon.failureReason.retriable).toBeBoolean();
    }
    expect(isTerminalCodonStatus(codon.status)).toBe(true);
    expect(isTerminalCodonStatus('running')).toBe(false);
  });
});

describe('stateSchema', () => {
  it('reads a state written by the original runtime without initialCheckpoint', () => {
    const state = stateSchema.parse({
      runs: [
        {
          runId: 'r1',
          runFolder: '/x/.hankweave/runs/r1',
          gitBranch: 'run-r1',
          startingConditions: { type: 'fresh' },
          codons: [completed],
          status: 'completed',
          startTime: 't',
          serverPid: 4,
        },
      ],
      currentRunId: null,
      executionPlan: [
        {
          codon: { id: 'loop-codon', name: 'L', model: 'sonnet' },
          codonId: 'loop-codon#0',
          loopContext: { loopId: 'l', iteration: 0, codonIndexInLoop: 0, budget: 3 },
        },
      ],
    });
    expect(state.executionPlan[0]?.loopContext).toMatchObject({ budget: 3 });
    expect(state.initialCheckpoint).toBeUndefined();
  });

  it('reports the path of a malformed run', () => {
    const result = stateSchema.safeParse({
      runs: [{ runId: 'r' }],
      currentRunId: null,
      executionPlan: [],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.path.join('.') === 'runs.0.runFolder')).toBe(
      true,
    );
  });
});

describe('stateTransitionSchema', () => {
  it('parses a typed transition and fills empty metadata', () => {
    const transition = stateTransitionSchema.parse({
      type: 'CodonTransitioned',
      data: { runId: 'r', codonId: 'a', from: 'preparing', to: 'starting', at: 't' },
    });
    expect(transition.type === 'CodonTransitioned' && transition.data.metadata).toEqual({});
  });

  it('rejects an unknown transition type', () => {
    expect(stateTransitionSchema.safeParse({ type: 'RunPaused', data: {} }).success).toBe(false);
  });
});

import {
  type CodonStatus,
  type CodonTransitionedData,
  type CodonTransitionMetadata,
  emptyTokenUsage,
  type StartingConditions,
  type StateTransition,
  type StateTransitionOf,
  type TokenUsage,
} from '@hankweave/types';

type Metadata = CodonTransitionMetadata;

/** A deterministic timestamp: `fixedTime(5)` is 12:00:05 on 2025-01-04 (seed 000's example day). */
export const fixedTime = (second = 0): string =>
  new Date(Date.UTC(2025, 0, 4, 12, 0, 0) + second * 1000).toISOString();

/** Token usage with these input/output counts. */
export const tokens = (inputTokens = 0, outputTokens = 0): TokenUsage => ({
  ...emptyTokenUsage(),
  inputTokens,
  outputTokens,
});

/**
 * Builders of valid transitions for tests, with fixed times so runs are reproducible.
 * `makeTransition.runStarted('r1')`, `.codonStarted('r1', 'research')`,
 * `.to('r1', 'research', 'preparing', 'starting', metadata)`.
 */
export const makeTransition = {
  runStarted: (
    runId: string,
    options: { serverPid?: number; startingConditions?: StartingConditions; second?: number } = {},
  ): StateTransitionOf<'RunStarted'> => ({
    type: 'RunStarted',
    data: {
      runId,
      runFolder: `/exec/.hankweave/runs/${runId}`,
      gitBranch: `run-${runId}`,
      startingConditions: options.startingConditions ?? { type: 'fresh' },
      serverPid: options.serverPid ?? 4242,
      startTime: fixedTime(options.second),
    },
  }),
  runCompleted: (runId: string): StateTransitionOf<'RunCompleted'> => ({
    type: 'RunCompleted',
    data: { runId, endTime: fixedTime(900) },
  }),
  runFailed: (runId: string): StateTransitionOf<'RunFailed'> => ({
    type: 'RunFailed',
    data: { runId, endTime: fixedTime(900), reason: 'codon failure' },
  }),
  runCrashed: (runId: string): StateTransitionOf<'RunCrashed'> => ({
    type: 'RunCrashed',
    data: { runId, detectedAt: fixedTime(999) },
  }),
  codonStarted: (
    runId: string,
    codonId: string,
    second = 1,
  ): StateTransitionOf<'CodonStarted'> => ({
    type: 'CodonStarted',
    data: { runId, codonId, startTime: fixedTime(second) },
  }),
  to: (
    runId: string,
    codonId: string,
    from: CodonStatus,
    to: CodonStatus,
    metadata: Metadata = {},
    second = 2,
  ): StateTransitionOf<'CodonTransitioned'> => ({
    type: 'CodonTransitioned',
    // Unchecked on purpose: the conformance suite also sends transitions that lack the metadata
    // their target needs, to see the store refuse them.
    data: { runId, codonId, from, to, at: fixedTime(second), metadata } as CodonTransitionedData,
  }),
  costsIncremented: (
    runId: string,
    codonId: string,
    costDelta: number,
    tokensDelta: TokenUsage = tokens(10, 5),
  ): StateTransitionOf<'CostsIncremented'> => ({
    type: 'CostsIncremented',
    data: { runId, codonId, costDelta, tokensDelta },
  }),
  messages: (
    runId: string,
    codonId: string,
    newCount: number,
  ): StateTransitionOf<'AssistantMessageCountUpdated'> => ({
    type: 'AssistantMessageCountUpdated',
    data: { runId, codonId, newCount },
  }),
  sentinels: (
    runId: string,
    codonId: string,
    totalCost: number,
  ): StateTransitionOf<'SentinelStatesUpdated'> => ({
    type: 'SentinelStatesUpdated',
    data: {
      runId,
      codonId,
      totalCost,
      sentinelStates: [
        {
          id: 'narrator',
          model: 'claude-sonnet-4-20250514',
          loadedAt: fixedTime(3),
          llmCallCount: 1,
          failedLLMCalls: 0,
          totalTriggers: 1,
          totalCost,
          status: 'active',
        },
      ],
    },
  }),
};

/** Metadata that satisfies each status's requirements (reference §5.5). */
export const METADATA_FOR: Readonly<Partial<Record<CodonStatus, Metadata>>> = {
  starting: { checkpointSha: 'rig0001' },
  initializing: { claudePid: 31337, claudeLogPath: 'runs/r/research-claude.log' },
  running: { claudeSessionId: 'session-1' },
  completed: { exitCode: 0, resultMessageReceived: true, checkpointSha: 'done0001' },
  failed: {
    failedDuring: 'running',
    exitCode: 1,
    failureReason: { type: 'timeout', retriable: true, message: 'API request timed out after 30s' },
    checkpointSha: 'err0001',
  },
  skipped: { skippedDuring: 'running', checkpointSha: 'skip0001' },
};

/**
 * The transitions that take a codon from nothing to `until` along the happy path
 * (preparing → starting → initializing → running → `until`), spending `cost` while running.
 */
export const codonLifecycle = (
  runId: string,
  codonId: string,
  until: 'preparing' | 'starting' | 'initializing' | 'running' | 'completed' | 'failed' | 'skipped',
  cost = 0.01,
): StateTransition[] => {
  const t = makeTransition;
  const steps: StateTransition[] = [t.codonStarted(runId, codonId)];
  const path: CodonStatus[] = ['preparing', 'starting', 'initializing', 'running'];
  for (let index = 1; index < path.length && path[index - 1] !== until; index++) {
    const from = path[index - 1] as CodonStatus;
    const to = path[index] as CodonStatus;
    steps.push(t.to(runId, codonId, from, to, METADATA_FOR[to]));
  }
  if (until === 'preparing' || until === 'starting' || until === 'initializing') return steps;
  steps.push(t.sentinels(runId, codonId, 0.001), t.costsIncremented(runId, codonId, cost));
  if (until === 'running') return steps;
  steps.push(t.to(runId, codonId, 'running', until, METADATA_FOR[until], 60));
  return steps;
};

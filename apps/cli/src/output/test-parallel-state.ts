import type { HankweaveState } from '@hankweave/types';

/**
 * A state.json of a run inside a parallel block (issue 36), for the CLI's tests: `plan` done,
 * block `review` with branches `left` (`style`, done) and `right` (`tests`, running), then the
 * block's merge entry (codon id = the block id) and `ship`, both pending.
 */
export function parallelState(): HankweaveState {
  const codon = (id: string, name = `Codon ${id}`) => ({ id, name, model: 'sonnet' });
  const sentinels = { executed: [], totalCost: 0 };
  const tokens = { inputTokens: 100, outputTokens: 20, cacheCreationTokens: 0, cacheReadTokens: 0 };
  const done = (codonId: string, start: string, end: string) => ({
    codonId,
    startTime: start,
    status: 'completed' as const,
    sentinels,
    endTime: end,
    exitCode: 0,
    finalCost: 0.01,
    finalTokens: tokens,
    resultMessageReceived: true,
    completionCheckpoint: `${codonId}-sha`,
  });
  return {
    currentRunId: 'run-1',
    executionPlan: [
      { codonId: 'plan', codon: codon('plan') },
      {
        codonId: 'style',
        codon: codon('style'),
        parallelContext: { blockId: 'review', role: 'branch', branchId: 'left' },
      },
      {
        codonId: 'tests',
        codon: codon('tests'),
        parallelContext: { blockId: 'review', role: 'branch', branchId: 'right' },
      },
      {
        codonId: 'review',
        codon: { id: 'review', name: 'Review', type: 'merge' },
        parallelContext: { blockId: 'review', role: 'merge' },
      },
      { codonId: 'ship', codon: codon('ship') },
    ],
    runs: [
      {
        runId: 'run-1',
        runFolder: '/tmp/x/.hankweave/runs/run-1',
        gitBranch: 'run-run-1',
        startingConditions: { type: 'fresh' },
        status: 'running',
        startTime: '2026-11-30T01:00:00.000Z',
        serverPid: 1,
        codons: [
          done('plan', '2026-11-30T01:00:00.000Z', '2026-11-30T01:00:10.000Z'),
          done('style', '2026-11-30T01:00:10.000Z', '2026-11-30T01:00:20.000Z'),
          {
            codonId: 'tests',
            startTime: '2026-11-30T01:00:10.000Z',
            status: 'running',
            claudePid: 2,
            claudeLogPath: 'runs/run-1/tests-claude.log',
            sentinels: { loaded: [], totalCost: 0 },
            claudeSessionId: 's',
            currentCost: 0.02,
            currentTokens: tokens,
            assistantMessageCount: 1,
          },
        ],
      },
    ],
  } as unknown as HankweaveState;
}

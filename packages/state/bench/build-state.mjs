// Builds a realistic state.json of about `bytes` bytes (2-space JSON): completed runs of
// completed codons with sentinels, as a long execution leaves behind.
const tokens = {
  inputTokens: 2000,
  outputTokens: 1200,
  cacheCreationTokens: 0,
  cacheReadTokens: 800,
};
const sentinel = {
  id: 'narrator',
  model: 'claude-sonnet-4-20250514',
  loadedAt: '2025-01-04T12:00:05.000Z',
  llmCallCount: 12,
  failedLLMCalls: 0,
  lastLlmCallAt: '2025-01-04T12:02:25.000Z',
  totalTriggers: 15,
  totalCost: 0.0012,
  status: 'unloaded',
};
const codon = (runId, index) => ({
  codonId: `codon-${index}`,
  startTime: '2025-01-04T12:00:00.000Z',
  status: 'completed',
  endTime: '2025-01-04T12:02:30.000Z',
  claudeSessionId: `session-${runId}-${index}`,
  claudeLogPath: `runs/${runId}/codon-${index}-claude.log`,
  exitCode: 0,
  finalCost: 0.0312,
  finalTokens: tokens,
  resultMessageReceived: true,
  rigSetupCheckpoint: 'a'.repeat(40),
  completionCheckpoint: 'b'.repeat(40),
  sentinels: { executed: [sentinel], totalCost: 0.0012 },
});

export const buildState = (bytes) => {
  const perCodon = JSON.stringify(codon('r', 0), null, 6).length;
  const codons = Math.max(1, Math.round(bytes / perCodon));
  const perRun = 50;
  const runs = [];
  for (let made = 0, run = 0; made < codons; run++) {
    const runId = `1736000000000-run${run}`;
    const count = Math.min(perRun, codons - made);
    runs.unshift({
      runId,
      runFolder: `/exec/.hankweave/runs/${runId}`,
      gitBranch: `run-${runId}`,
      startingConditions: { type: 'fresh' },
      status: 'completed',
      codons: Array.from({ length: count }, (_, index) => codon(runId, made + index)),
      startTime: '2025-01-04T12:00:00.000Z',
      endTime: '2025-01-04T13:00:00.000Z',
      serverPid: 1,
    });
    made += count;
  }
  return { runs, currentRunId: null, executionPlan: [] };
};

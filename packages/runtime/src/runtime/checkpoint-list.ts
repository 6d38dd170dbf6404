import { currentRun } from '@hankweave/state';
import type { EventData } from '@hankweave/types';
import type { RuntimeContext } from './runtime-context.js';

/**
 * The `checkpoint.list` payload: every checkpoint of every run (or of one run), newest first,
 * with the state's view of its codon (reference §3.3).
 */
export async function listCheckpoints(
  context: RuntimeContext,
  runId?: string,
): Promise<EventData<'checkpoint.list'>> {
  const state = context.store.state;
  const statusOf = new Map<string, string>();
  for (const run of state.runs) {
    for (const codon of run.codons) statusOf.set(`${run.runId}/${codon.codonId}`, codon.status);
  }
  const head = await context.engine.head();
  const checkpoints = (await context.engine.list())
    .filter((checkpoint) => runId === undefined || checkpoint.runId === runId)
    .map((checkpoint) => ({
      codonId: checkpoint.codonId,
      codonName: checkpoint.codonName,
      checkpointType: checkpoint.type,
      sha: checkpoint.sha,
      status: statusOf.get(`${checkpoint.runId}/${checkpoint.codonId}`) ?? 'unknown',
      timestamp: checkpoint.timestamp,
      runId: checkpoint.runId,
      branch: checkpoint.branch,
    }));
  return {
    runId: runId ?? currentRun(state)?.runId ?? null,
    currentBranch: head.branch,
    checkpoints,
  };
}

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StartingConditions } from '@hankweave/types';
import { buildInitialPlan } from '../plan/planner.js';
import { type RuntimeContext, transition } from './runtime-context.js';

/** A run id: `{Date.now()}-{5 random base36 characters}` (reference §5.4). */
export function newRunId(clock: () => Date): string {
  const random = BigInt(`0x${randomBytes(4).toString('hex')}`)
    .toString(36)
    .padStart(5, '0')
    .slice(-5);
  return `${clock().getTime()}-${random}`;
}

/**
 * Opens a run (reference §5.4): `RunStarted` with its folder and branch name; a fresh run also
 * freezes the plan built from hank.json, while continuations reuse the plan already in state.
 */
export function startRun(context: RuntimeContext, conditions: StartingConditions): string {
  const runId = newRunId(context.clock);
  const runFolder = join(context.layout.runsDir, runId);
  mkdirSync(runFolder, { recursive: true });
  transition(context, {
    type: 'RunStarted',
    data: {
      runId,
      runFolder,
      gitBranch: `run-${runId}`,
      startingConditions: conditions,
      serverPid: process.pid,
      startTime: context.clock().toISOString(),
    },
  });
  const state = context.store.state;
  // The plan is built from hank.json once, for an execution that never had one (no codon ever
  // ran). After that only decisions change it, also across fresh starts (a failure of the first
  // codon, a rollback to the start): a plan that decisions emptied (a loop its budget ended, say)
  // stays empty, so a later start neither runs nor ends that loop again (the interpreter's rule).
  const neverPlanned =
    state.executionPlan.length === 0 && state.runs.every((run) => run.codons.length === 0);
  if (neverPlanned) {
    transition(context, {
      type: 'ExecutionPlanUpdated',
      data: { executionPlan: buildInitialPlan(context.config) },
    });
  }
  context.log.info(
    `Started run ${runId} (${conditions.type}${conditions.type === 'continuation' ? `, ${conditions.reason ?? 'continue'} after ${conditions.source.afterCodon ?? 'the start'}` : ''})`,
  );
  return runId;
}

/** Ends a run that is still running. */
export function endRun(
  context: RuntimeContext,
  runId: string,
  status: 'completed' | 'failed',
  reason?: string,
): void {
  const run = context.store.state.runs.find((candidate) => candidate.runId === runId);
  if (run?.status !== 'running') return;
  const endTime = context.clock().toISOString();
  if (status === 'completed')
    transition(context, { type: 'RunCompleted', data: { runId, endTime } });
  else
    transition(context, {
      type: 'RunFailed',
      data: { runId, endTime, ...(reason ? { reason } : {}) },
    });
}

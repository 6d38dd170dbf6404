import { announceOutputs } from '../outputs/codon-outputs.js';
import { announceContainment } from '../sandbox/announce-containment.js';
import type { OpenExecution } from './open-execution.js';
import { reapOrphanAgents } from './reap-orphan-agents.js';
import { recoverExecution } from './recover-execution.js';
import { info, type RuntimeContext } from './runtime-context.js';

/**
 * The start's recovery, once the execution is open: kills the agents a crashed process left,
 * marks crashed runs, rolls back to the last success (`rollBackToResumePoint`, which the runtime
 * runs in its `rolling-back` phase) when the last run failed, and names the run in `runtime.lock`.
 */
export async function recoverOnStart(
  exec: OpenExecution,
  rollBackToResumePoint: () => Promise<unknown>,
): Promise<void> {
  const context = exec.context;
  await reapOrphanAgents(context.store.state, {
    previous: exec.lock.previous,
    log: context.log,
    graceMs: context.settings.killGraceMs,
  });
  const recovery = recoverExecution(context);
  if (recovery.kind === 'roll-back-to-resume-point') {
    await rollBackToResumePoint();
  }
  await exec.lock.update({ runId: context.store.state.currentRunId });
}

/** Announces a ready execution: where it is, its containment, its pipeline and its outputs. */
export function announceReady(context: RuntimeContext): void {
  info(
    context,
    `Execution ${context.layout.executionDir} ready (run ${context.store.state.currentRunId})`,
  );
  announceContainment(context);
  void context.sessions.syncPipeline(context.store.state);
  announceOutputs(context);
}

import {
  currentRun,
  executionThread,
  findCrashedRuns,
  runCrashedTransition,
} from '@hankweave/state';
import {
  checkpointListing,
  listAgentRootSync,
  recordListingSync,
} from '../rollback/checkpoint-listing.js';
import { recoveryNotice } from './recovery-notice.js';
import { resumePoint } from './resume-point.js';
import { startRun } from './runs.js';
import { emit, info, type RuntimeContext, transition } from './runtime-context.js';

/** What `start()` must do after recovery: nothing more, or roll back to the resume point. */
export type Recovery = { kind: 'ready' } | { kind: 'roll-back-to-resume-point' };

/**
 * Recovery at start (reference §5.3–5.4): marks the runs of processes that are gone as crashed,
 * records the initial checkpoint, and opens this process's run: a continuation after the resume
 * point (see `resumePoint`), or a fresh run. When the last run failed or crashed, the caller
 * rolls back to the resume point instead (which opens the run).
 */
export function recoverExecution(context: RuntimeContext): Recovery {
  reportStateRepairs(context);
  // We hold the lock, so every run still marked running belongs to a server that is gone.
  for (const run of findCrashedRuns(context.store.state, {
    isPidAlive: () => false,
    exclusive: true,
  })) {
    context.log.warn(
      `Run ${run.runId} (pid ${run.serverPid}) did not shut down: marking it crashed`,
    );
    transition(context, runCrashedTransition(run, context.clock()));
  }
  if (!context.store.state.initialCheckpoint) {
    // agentRoot as the execution starts; durable before the checkpoint is recorded.
    const sha = context.engine.initialCheckpoint;
    recordListingSync(context, checkpointListing(sha, listAgentRootSync(context), []));
    transition(context, {
      type: 'InitialCheckpointSet',
      data: { sha: context.engine.initialCheckpoint },
    });
  }
  const thread = executionThread(context.store.state);
  if (thread.runId && thread.failed) {
    info(context, recoveryNotice(context.store.state, resumePoint(context)));
    return { kind: 'roll-back-to-resume-point' };
  }
  // A runtime opened only to roll back opens no run here: the rollback opens the one it records.
  if (!currentRun(context.store.state) && context.settings.openRunAtStart !== false) {
    const point = resumePoint(context);
    if (point) {
      startRun(context, {
        type: 'continuation',
        source: { runId: point.runId, afterCodon: point.codonId, checkpointSha: point.sha },
        reason: 'continue',
      });
    } else {
      startRun(context, {
        type: 'fresh',
        initialCheckpointSha:
          context.store.state.initialCheckpoint ?? context.engine.initialCheckpoint,
      });
    }
  }
  return { kind: 'ready' };
}

/**
 * A state.json that loaded but broke a structural rule was repaired and kept by the store (the
 * damaged file moved aside as `.corrupt-*`): its runs are acknowledged history. The repair is
 * journaled as a warning, so clients and later readers know.
 */
function reportStateRepairs(context: RuntimeContext): void {
  const { repairs } = context.store.recovery;
  if (repairs.length === 0) return;
  const listed = repairs
    .slice(0, 5)
    .map((repair) => `${repair.path || '(root)'}: ${repair.message}`)
    .join('; ');
  emit(context, 'error', {
    message: `${repairs[0]?.file ?? 'state.json'} was repaired on load (${repairs.length} repair(s); the damaged file is kept beside it as .corrupt-*): ${listed}`,
    fatal: false,
    severity: 'warning',
    code: 'STATE_REPAIRED',
    context: { repairs },
  });
}

import {
  currentRun,
  executionThread,
  findCrashedRuns,
  runCrashedTransition,
} from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import { recoveryNotice } from './recovery-notice.js';
import { startRun } from './runs.js';
import { emit, info, type RuntimeContext, transition } from './runtime-context.js';

/** What `start()` must do after recovery: nothing more, or roll back to the last success. */
export type Recovery = { kind: 'ready' } | { kind: 'roll-back-to-last-success' };

/**
 * Recovery at start (reference §5.3–5.4): marks the runs of processes that are gone as crashed,
 * records the initial checkpoint, and opens this process's run: a continuation after the last
 * completed codon, or a fresh run. When the last run failed or crashed, the caller rolls back to
 * the last success instead (which opens the run).
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
    transition(context, {
      type: 'InitialCheckpointSet',
      data: { sha: context.engine.initialCheckpoint },
    });
  }
  const thread = executionThread(context.store.state);
  if (thread.runId && thread.failed) {
    info(context, recoveryNotice(context.store.state));
    return { kind: 'roll-back-to-last-success' };
  }
  // A runtime opened only to roll back opens no run here: the rollback opens the one it records.
  if (!currentRun(context.store.state) && context.settings.openRunAtStart !== false) {
    const resume = lastCompletion(context.store.state);
    if (resume) {
      startRun(context, { type: 'continuation', source: resume, reason: 'continue' });
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

/** The newest completion on the thread, else in any run: where a new run continues from. */
function lastCompletion(
  state: HankweaveState,
): { runId: string; afterCodon: string; checkpointSha: string } | undefined {
  for (const { codon, runId } of executionThread(state).codons) {
    if (codon.status === 'completed' && codon.completionCheckpoint)
      return { runId, afterCodon: codon.codonId, checkpointSha: codon.completionCheckpoint };
  }
  for (const run of state.runs) {
    for (const codon of [...run.codons].reverse()) {
      if (codon.status === 'completed' && codon.completionCheckpoint)
        return {
          runId: run.runId,
          afterCodon: codon.codonId,
          checkpointSha: codon.completionCheckpoint,
        };
    }
  }
  return undefined;
}

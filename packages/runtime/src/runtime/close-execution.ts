import { currentRun } from '@hankweave/state';
import { emitBudgetSummary } from '../budget/budget-summary.js';
import { INTERRUPTED_NOTE_PREFIX } from '../executions-admin/interrupted-note.js';
import type { SessionEnding } from '../session-tracking/session-tracker.js';
import { computeExitCode, type RuntimeExit, type ShutdownReason } from './exit-code.js';
import type { OpenExecution } from './open-execution.js';
import { endRun } from './runs.js';

/**
 * Closes an open execution (reference §5.8): ends the current run, flushes the bus, saves state,
 * closes the journal and the checkpoint repository, releases `runtime.lock`. Failures to close are
 * logged, never thrown: the lock is released whatever happens. Returns the exit of reference §2.6.
 */
export async function closeExecution(
  exec: OpenExecution,
  reason: ShutdownReason,
): Promise<RuntimeExit> {
  const { context } = exec;
  const run = currentRun(context.store.state);
  if (run && reason !== 'force') {
    // A run ends failed when a codon was interrupted or its last codon failed; the next start
    // then rolls back to the last success. An idle run (between codons, after a rollback)
    // ends completed, so an explicit rollback is not undone by the next start.
    // A spent budget ends the run as its onExceeded says, whatever the last codon did.
    const last = run.codons.at(-1);
    const clean =
      reason === 'all codons completed' ||
      reason === 'budget exceeded' ||
      (reason !== 'budget failure' &&
        (last === undefined || last.status === 'completed' || last.status === 'skipped'));
    emitBudgetSummary(context);
    if (clean) endRun(context, run.runId, 'completed');
    else endRun(context, run.runId, 'failed', reason);
  }
  const runStatus = context.store.state.runs.find(
    (candidate) => candidate.runId === run?.runId,
  )?.status;
  context.log.info(`Shutting down (${reason})`);
  await context.bus.drain();
  // Before the lock goes: a session reads `running` exactly while its runtime holds the lock.
  await context.sessions.close(context.store.state, sessionEnding(reason, runStatus));
  await context.store
    .close()
    .catch((error) => context.log.error(`Saving state failed: ${(error as Error).message}`));
  await context.journal
    .close()
    .catch((error) => context.log.error(`Closing the journal failed: ${(error as Error).message}`));
  await context.engine.close().catch(() => undefined);
  await context.fileWatch?.close().catch(() => undefined);
  await context.dataWatch.close().catch(() => undefined);
  await exec.lock.release().catch(() => undefined);
  return { exitCode: computeExitCode(reason, runStatus), reason };
}

function describeStop(reason: 'SIGINT' | 'SIGTERM' | 'client request'): string {
  return reason === 'SIGINT'
    ? 'Ctrl-C (SIGINT)'
    : reason === 'SIGTERM'
      ? 'SIGTERM'
      : 'a client asked the server to shut down';
}

/**
 * How the session registry records a shutdown: stopped by the user (a signal, `server.shutdown`,
 * `hankweave kill`, a forced stop) is `killed`; anything else is `completed`, with a note when
 * the run failed (the seed's registry has no failed status).
 */
export function sessionEnding(
  reason: ShutdownReason,
  runStatus: string | undefined,
): SessionEnding {
  switch (reason) {
    case 'SIGINT':
    case 'SIGTERM':
    case 'client request':
      // `interrupted` starts the note: `sessions` shows such a session as interrupted (the
      // registry itself has only `killed` for a stopped session, seed 004).
      return { kind: 'killed', note: `${INTERRUPTED_NOTE_PREFIX}${describeStop(reason)}` };
    case 'force':
      return { kind: 'killed', note: `stopped: ${reason}` };
    default: {
      const failed =
        runStatus === 'failed' ||
        reason === 'codon failure' ||
        reason === 'budget failure' ||
        reason === 'error';
      return failed
        ? { kind: 'completed', failed, note: `the run failed (${reason})` }
        : {
            kind: 'completed',
            failed,
            ...(reason === 'budget exceeded'
              ? { note: 'budget exceeded: the remaining codons were not run' }
              : {}),
          };
    }
  }
}

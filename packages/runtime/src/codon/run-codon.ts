import type { ExecutionCodonEntry } from '@hankweave/types';
import type { ConditionSkip } from '../plan/condition-gate.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';
import { beforeAgent, openCodonSession } from '../session-tracking/codon-session.js';
import type { CheckpointHint } from './checkpoint-hint.js';
import { beginCodon, moveCodon } from './codon-attempt.js';
import type { CodonControl } from './codon-control.js';
import type { CodonRunOutcome } from './codon-run-outcome.js';
import {
  agentEnding,
  conditionEnding,
  failedEnding,
  finishCodon,
  stoppedEnding,
} from './finish-codon.js';
import { prepareCodon } from './prepare-codon.js';
import { runAgent } from './run-agent.js';
import { startCodon } from './start-codon.js';
import { scanAndReport } from './tracked-files.js';

/**
 * Runs one attempt of one codon through the eight states (reference §5.5), one phase function
 * each: `prepareCodon` (rig setup and its checkpoint), `startCodon` (sentinels, the session to
 * continue, tracked files, prompts), `runAgent` (the agent and its extensions, file scans after
 * tool calls), `finishCodon` (final cost, sentinels, the checkpoint before the terminal
 * transition). Never throws for a codon failure: the outcome says.
 */
export async function runCodon(
  context: RuntimeContext,
  input: {
    runId: string;
    entry: ExecutionCodonEntry;
    skipPreCommands: boolean;
    control: CodonControl;
    hint: CheckpointHint;
    /** A `when` that did not hold: the codon is recorded skipped, nothing of it runs. */
    skip?: ConditionSkip;
  },
): Promise<CodonRunOutcome> {
  const attempt = beginCodon(context, input);
  const { control } = attempt;
  await openCodonSession(attempt);
  if (input.skip) return finishCodon(attempt, conditionEnding(input.skip));

  const prepared = await prepareCodon(attempt, input.skipPreCommands);
  if (prepared.kind === 'failed') {
    // A rig command killed because the codon was stopped (a shutdown, a sibling branch's failure)
    // was interrupted, not faulty: recorded as such, it runs again on resume even under `ignore`.
    if (control.stopReason) {
      return finishCodon(attempt, stoppedEnding(control.stopReason, control.status));
    }
    return finishCodon(attempt, failedEnding(prepared.failureReason, prepared.exitCode));
  }
  if (control.stopReason) {
    return finishCodon(attempt, stoppedEnding(control.stopReason, control.status));
  }
  moveCodon(attempt, {
    to: 'starting',
    metadata: prepared.rigSetupCheckpoint ? { checkpointSha: prepared.rigSetupCheckpoint } : {},
  });

  const started = await startCodon(attempt);
  if (started.kind === 'failed') return finishCodon(attempt, failedEnding(started.failureReason));

  const ran = await runAgent(attempt, {
    ...started,
    prompts: await beforeAgent(attempt, started.prompts),
  });
  if (ran.kind === 'failed') return finishCodon(attempt, failedEnding(ran.failureReason));
  // Changes made by shell commands after the last tool result, or by background processes.
  attempt.hint.add(
    await scanAndReport(context, attempt.codonId, attempt.patterns, { kind: 'scan' }),
  );
  return finishCodon(attempt, agentEnding(attempt, ran.run), ran.run);
}

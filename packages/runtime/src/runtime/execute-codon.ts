import { currentRun } from '@hankweave/state';
import type { ExecutionCodonEntry } from '@hankweave/types';
import type { CheckpointHint } from '../codon/checkpoint-hint.js';
import { CodonControl } from '../codon/codon-control.js';
import type { CodonRunOutcome } from '../codon/codon-run-outcome.js';
import { runCodon } from '../codon/run-codon.js';
import { RuntimeError } from '../errors.js';
import { outputsAfterCodon } from '../outputs/codon-outputs.js';
import type { ConditionSkip } from '../plan/condition-gate.js';
import type { ActiveCodon } from './active-codons.js';
import { blockRetrySource, decideAfterCodon, retrySource } from './after-codon.js';
import type { Decision } from './decision.js';
import { endRun, startRun } from './runs.js';
import type { RuntimeContext } from './runtime-context.js';

/** How one attempt of a codon runs: with or without its rig, as an automatic retry, skipped. */
export interface ExecuteOptions {
  skipPreCommands: boolean;
  isAutoRetry: boolean;
  skip?: ConditionSkip;
}

/** What an attempt needs of the runtime that owns it. */
export interface ExecuteHost {
  readonly headless: boolean;
  /** The codons running now: the attempt is in it while its agent runs. */
  readonly active: Set<ActiveCodon>;
  /** Records a newly opened run in `runtime.lock`. */
  updateRunId(runId: string): Promise<unknown> | undefined;
}

/**
 * One attempt of `codonId` in `context` (agentRoot's or a parallel branch's), and the decision
 * that follows it (retry, next, idle, shutdown), with the codon's outputs handled.
 *
 * @throws {RuntimeError} RUNTIME_UNKNOWN_CODON, RUNTIME_INTERNAL when no run is open
 */
export async function executeCodon(
  host: ExecuteHost,
  context: RuntimeContext,
  hint: CheckpointHint,
  codonId: string,
  options: ExecuteOptions,
): Promise<Decision> {
  const entry = requirePlanEntry(context, codonId);
  const run = currentRun(context.store.state);
  if (!run) {
    throw new RuntimeError(
      'RUNTIME_INTERNAL',
      'No run is open (an internal inconsistency); restart the runtime, which opens a run from the last checkpoint',
    );
  }
  let runId = run.runId;
  if (!options.isAutoRetry && run.codons.some((codon) => codon.codonId === codonId)) {
    // Running a codon again opens a continuation run, so each run holds one attempt per codon.
    endRun(context, runId, 'completed');
    runId = startRun(context, {
      type: 'continuation',
      // In a block, the previous plan entry may be another branch's: keep the whole thread.
      source: entry.parallelContext
        ? blockRetrySource(context, runId)
        : retrySource(context, entry, runId),
      reason: 'retry',
    });
    await host.updateRunId(runId);
  }
  const control = new CodonControl(codonId);
  const promise = runCodon(context, {
    runId,
    entry,
    skipPreCommands: options.skipPreCommands,
    control,
    hint,
    ...(options.skip ? { skip: options.skip } : {}),
  });
  const active = { control, promise };
  host.active.add(active);
  let outcome: CodonRunOutcome;
  try {
    outcome = await promise;
  } finally {
    host.active.delete(active);
  }
  const decision = decideAfterCodon(context, {
    codonId,
    runId,
    outcome,
    headless: host.headless,
  });
  void context.sessions.syncPipeline(context.store.state);
  return outputsAfterCodon(context, { codonId, runId, outcome }, decision);
}

/**
 * The plan entry of `codonId`.
 *
 * @throws {RuntimeError} RUNTIME_UNKNOWN_CODON for a codon not in the plan
 */
export function requirePlanEntry(context: RuntimeContext, codonId: string): ExecutionCodonEntry {
  const entry = context.store.state.executionPlan.find(
    (candidate) => candidate.codonId === codonId,
  );
  if (!entry) {
    throw new RuntimeError(
      'RUNTIME_UNKNOWN_CODON',
      `Codon ${codonId} is not in the plan; use a runtime id from state.json's executionPlan (loop codons look like review#0)`,
      { details: { codonId } },
    );
  }
  return entry;
}

import type {
  CodonConfig,
  CodonStatus,
  CodonTransitionedData,
  ExecutionCodonEntry,
} from '@hankweave/types';
import { entryCodon } from '../plan/planner.js';
import { type RuntimeContext, transition } from '../runtime/runtime-context.js';
import { progressPatternsUpTo } from '../session-tracking/session-names.js';
import type { CheckpointHint } from './checkpoint-hint.js';
import type { CodonControl } from './codon-control.js';
import { nextRetryAttempt } from './retry-series.js';
import { patternsUpTo } from './tracked-files.js';

/** One attempt of one codon: what every phase of `runCodon` reads. */
export interface CodonAttempt {
  readonly context: RuntimeContext;
  readonly runId: string;
  readonly entry: ExecutionCodonEntry;
  readonly codonId: string;
  readonly codon: CodonConfig;
  readonly control: CodonControl;
  readonly hint: CheckpointHint;
  /** The tracked patterns in force for this codon (accumulated over the plan). */
  readonly patterns: readonly string[];
  /** `Date.now()` when the attempt began, for durations. */
  readonly startedMs: number;
  /** ISO time of `CodonStarted`. */
  readonly startTime: string;
  /** The attempt's place in its retry series: 1 for a first try (recorded in state when > 1). */
  readonly retryAttempt: number;
}

/** Opens a codon attempt: records `CodonStarted`; the codon is then `preparing`. */
export function beginCodon(
  context: RuntimeContext,
  input: {
    runId: string;
    entry: ExecutionCodonEntry;
    control: CodonControl;
    hint: CheckpointHint;
  },
): CodonAttempt {
  const { runId, entry, control } = input;
  const codon = entryCodon(entry);
  const attempt: CodonAttempt = {
    context,
    runId,
    entry,
    codonId: entry.codonId,
    codon,
    control,
    hint: input.hint,
    // Progress files are tracked, so they are checkpointed and rolled back with the loop's files.
    patterns: [
      ...new Set([
        ...patternsUpTo(context.store.state.executionPlan, entry.codonId),
        ...progressPatternsUpTo(
          context.config,
          context.store.state.executionPlan,
          entry.codonId,
          context.layout.executionDir,
        ),
      ]),
    ],
    startedMs: Date.now(),
    startTime: context.clock().toISOString(),
    retryAttempt: nextRetryAttempt(context.store.state, entry.codonId, codon),
  };
  transition(context, {
    type: 'CodonStarted',
    data: {
      runId,
      codonId: attempt.codonId,
      startTime: attempt.startTime,
      ...(entry.loopContext ? { loopContext: entry.loopContext } : {}),
      ...(attempt.retryAttempt > 1 ? { retryAttempt: attempt.retryAttempt } : {}),
    },
  });
  control.status = 'preparing';
  return attempt;
}

/** A codon's next status with the metadata that status needs, discriminated on `to`. */
export type CodonMove = {
  [To in CodonStatus]: { to: To; metadata: CodonTransitionedData<To>['metadata'] };
}[CodonStatus];

/**
 * Moves the codon to `move.to` with its metadata (the compiler checks it: `failed` needs
 * `failedDuring`, `exitCode` and `failureReason`, and so on).
 */
export function moveCodon(attempt: CodonAttempt, move: CodonMove): void {
  transition(attempt.context, {
    type: 'CodonTransitioned',
    data: {
      runId: attempt.runId,
      codonId: attempt.codonId,
      from: attempt.control.status,
      at: attempt.context.clock().toISOString(),
      ...move,
    },
  });
  attempt.control.status = move.to;
}

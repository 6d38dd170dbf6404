import { RECORD_CHECKPOINT_TYPES, recordCheckpoint, recordTokens } from '@hankweave/inspection';
import { codonCost } from '@hankweave/state';
import {
  type CodonExecution,
  type ExecutionCodonEntry,
  type HankweaveState,
  isInterruption,
  type LoopContext,
  type PlanCodon,
  type Run,
} from '@hankweave/types';
import type { CodonBar } from '../../src/api/types.js';

/** One codon record with where it sits: its run and its position in `run.codons`. */
export interface PlacedRecord {
  run: Run;
  index: number;
  record: CodonExecution;
}

/** Every codon record of every run, oldest run first, each run's records in order. */
export function chronologicalRecords(state: HankweaveState): PlacedRecord[] {
  // `state.runs` is newest first (a new run is prepended).
  return [...state.runs]
    .reverse()
    .flatMap((run) => run.codons.map((record, index) => ({ run, index, record })));
}

/** The stable, URL-safe key of one record: `{runId}~{index in run}`. */
export const barKey = (runId: string, index: number): string => `${runId}~${index}`;

const planIndexes = new WeakMap<HankweaveState, Map<string, ExecutionCodonEntry>>();

/** The plan entry of a runtime codon id, through an index built once per state object. */
export function planEntryOf(
  state: HankweaveState,
  codonId: string,
): ExecutionCodonEntry | undefined {
  let index = planIndexes.get(state);
  if (!index) {
    index = new Map();
    for (const entry of state.executionPlan)
      if (!index.has(entry.codonId)) index.set(entry.codonId, entry);
    planIndexes.set(state, index);
  }
  return index.get(codonId);
}

/** The plan's codon config of a runtime codon id (`polish-pass#1`), if the plan has it. */
export function planCodonOf(state: HankweaveState, codonId: string): PlanCodon | undefined {
  return planEntryOf(state, codonId)?.codon;
}

/**
 * Where a record sits in a loop: its own `loopContext`, else its plan entry's (records written by
 * the original runtime carry none).
 */
export function loopOf(state: HankweaveState, record: CodonExecution): LoopContext | undefined {
  return record.loopContext ?? planEntryOf(state, record.codonId)?.loopContext;
}

/** The model a codon runs on, as its plan config names it (`codon.model`). */
export function planModelOf(state: HankweaveState, codonId: string): string | undefined {
  const model = (planCodonOf(state, codonId) as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

/** The end of a terminal record; undefined while it is active. */
export function recordEnd(record: CodonExecution): string | undefined {
  return record.status === 'completed' || record.status === 'failed' || record.status === 'skipped'
    ? record.endTime
    : undefined;
}

function toBar(state: HankweaveState, placed: PlacedRecord, attempt: number): CodonBar {
  const { run, index, record } = placed;
  const tokens = recordTokens(record);
  const model = planModelOf(state, record.codonId);
  const endTime = recordEnd(record);
  const loop = loopOf(state, record);
  const parallel = planEntryOf(state, record.codonId)?.parallelContext;
  const extensions = (record as { extensionCount?: number }).extensionCount ?? 0;
  const checkpoints = RECORD_CHECKPOINT_TYPES.flatMap((type) => {
    const sha = recordCheckpoint(record, type);
    return sha ? [{ type, sha }] : [];
  });
  return {
    key: barKey(run.runId, index),
    runId: run.runId,
    codonId: record.codonId,
    name: planCodonOf(state, record.codonId)?.name ?? record.codonId,
    ...(model ? { model } : {}),
    status: record.status,
    startTime: record.startTime,
    ...(endTime ? { endTime } : {}),
    costUsd: codonCost(record),
    tokens: {
      input: tokens?.inputTokens ?? 0,
      output: tokens?.outputTokens ?? 0,
      cacheRead: tokens?.cacheReadTokens ?? 0,
      cacheWrite: tokens?.cacheCreationTokens ?? 0,
    },
    extensions,
    attempt,
    ...(loop ? { loop: { loopId: loop.loopId, iteration: loop.iteration } } : {}),
    ...(parallel
      ? {
          parallel: {
            blockId: parallel.blockId,
            role: parallel.role,
            ...(parallel.branchId === undefined ? {} : { branchId: parallel.branchId }),
          },
        }
      : {}),
    ...(record.status === 'failed'
      ? {
          failure: {
            type: record.failureReason.type,
            message: record.failureReason.message ?? `failed during ${record.failedDuring}`,
          },
          ...(isInterruption(record.failureReason) ? { interrupted: true } : {}),
        }
      : {}),
    ...(record.status === 'skipped' && record.skippedBy === 'condition' && record.skipReason
      ? { skipReason: record.skipReason }
      : {}),
    checkpoints,
  };
}

/**
 * One bar per codon record of every run, oldest first: a retry, a re-run after a rollback and
 * each loop iteration is a bar of its own; `attempt` counts the records of the same codon id.
 */
export function codonBars(state: HankweaveState): CodonBar[] {
  const attempts = new Map<string, number>();
  return chronologicalRecords(state).map((placed) => {
    const attempt = (attempts.get(placed.record.codonId) ?? 0) + 1;
    attempts.set(placed.record.codonId, attempt);
    return toBar(state, placed, attempt);
  });
}

/** The parallel blocks of the plan with their branch ids, both in plan order (issue 36). */
export function planBlocks(state: HankweaveState): { blockId: string; branches: string[] }[] {
  const blocks = new Map<string, string[]>();
  for (const entry of state.executionPlan) {
    const parallel = entry.parallelContext;
    if (!parallel) continue;
    const branches = blocks.get(parallel.blockId) ?? [];
    if (parallel.branchId !== undefined && !branches.includes(parallel.branchId))
      branches.push(parallel.branchId);
    blocks.set(parallel.blockId, branches);
  }
  return [...blocks].map(([blockId, branches]) => ({ blockId, branches }));
}

/** The loops of the plan with how many iterations it holds so far, in plan order. */
export function planLoops(state: HankweaveState): { loopId: string; iterations: number }[] {
  const iterations = new Map<string, Set<number>>();
  for (const entry of state.executionPlan) {
    if (!entry.loopContext) continue;
    const seen = iterations.get(entry.loopContext.loopId) ?? new Set<number>();
    seen.add(entry.loopContext.iteration);
    iterations.set(entry.loopContext.loopId, seen);
  }
  return [...iterations].map(([loopId, seen]) => ({ loopId, iterations: seen.size }));
}

import {
  type CodonExecution,
  type ExecutionCodonEntry,
  type HankweaveState,
  isTerminalCodonStatus,
} from '@hankweave/types';
import type { RuntimeContext } from '../runtime/runtime-context.js';
import {
  type BudgetCeiling,
  type CodonLimits,
  hankCeiling,
  resolveCodonLimits,
  type SpentRow,
} from './resolve-budget.js';

/** The dollars a codon record spent: its final cost, else its partial or live cost. */
export function recordDollars(record: CodonExecution): number {
  const loose = record as { finalCost?: number; partialCost?: number; currentCost?: number };
  if (record.status === 'completed') return loose.finalCost ?? 0;
  return loose.partialCost ?? loose.currentCost ?? 0;
}

/** The wall time a codon record took, in seconds (up to `nowMs` while it is still active). */
export function recordSeconds(record: CodonExecution, nowMs: number): number {
  const start = Date.parse(record.startTime);
  const endTime = (record as { endTime?: string }).endTime;
  const end = endTime ? Date.parse(endTime) : nowMs;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : 0;
}

/**
 * What every codon attempt recorded in state spent (all runs of the execution: money spent before
 * a rollback is still spent), keyed for allocation by the plan's loop contexts.
 */
export function spentRows(state: HankweaveState, nowMs: number): SpentRow[] {
  const byId = new Map(state.executionPlan.map((entry) => [entry.codonId, entry]));
  const rows: SpentRow[] = [];
  for (const run of state.runs) {
    for (const record of run.codons) {
      const entry = byId.get(record.codonId);
      const loopId = entry?.loopContext?.loopId ?? record.loopContext?.loopId;
      rows.push({
        codonId: record.codonId,
        baseId:
          (entry?.codon as { id?: string } | undefined)?.id ??
          record.codonId.split('#')[0] ??
          record.codonId,
        ...(loopId !== undefined ? { loopId } : {}),
        dollars: recordDollars(record),
        seconds: recordSeconds(record, nowMs),
      });
    }
  }
  return rows;
}

/** The hank's effective ceiling under this runtime's budget options. */
export function runtimeCeiling(context: RuntimeContext): BudgetCeiling {
  return hankCeiling(context.config, context.settings.budget);
}

/**
 * The limits of the codon of `entry` now, from what earlier attempts spent (the attempt being run,
 * still active in state, is left out: the watchdog counts it live).
 */
export function codonLimits(context: RuntimeContext, entry: ExecutionCodonEntry): CodonLimits {
  const state = context.store.state;
  const earlier = {
    ...state,
    runs: state.runs.map((run) => ({
      ...run,
      codons: run.codons.filter(
        (record) => record.codonId !== entry.codonId || isTerminalCodonStatus(record.status),
      ),
    })),
  };
  return resolveCodonLimits({
    config: context.config,
    entry,
    ceiling: runtimeCeiling(context),
    spent: spentRows(earlier, context.clock().getTime()),
  });
}

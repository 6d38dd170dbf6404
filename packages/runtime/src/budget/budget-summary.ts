import type { CodonExecution, EventData, HankConfig, HankweaveState } from '@hankweave/types';
import { emit, type RuntimeContext } from '../runtime/runtime-context.js';
import { recordDollars, recordSeconds, runtimeCeiling } from './codon-budget.js';
import { type BudgetCeiling, type CodonLimits, hankHasBudget } from './resolve-budget.js';

/** The limits each codon ran under, as the watchdog resolved them (for the summary's rows). */
const limitsSeen = new WeakMap<object, Map<string, CodonLimits>>();
const summarized = new WeakSet<object>();

/** Remembers the limits a codon attempt runs under. */
export function rememberLimits(context: object, codonId: string, limits: CodonLimits): void {
  const byCodon = limitsSeen.get(context) ?? new Map<string, CodonLimits>();
  limitsSeen.set(context, byCodon);
  byCodon.set(codonId, limits);
}

const tokensOf = (record: CodonExecution): number => {
  const loose = record as {
    finalTokens?: { outputTokens?: number };
    partialTokens?: { outputTokens?: number };
    currentTokens?: { outputTokens?: number };
  };
  return (
    (record.status === 'completed'
      ? loose.finalTokens?.outputTokens
      : (loose.partialTokens?.outputTokens ?? loose.currentTokens?.outputTokens)) ?? 0
  );
};

type RowStatus = 'completed' | 'failed' | 'skipped' | 'exceeded' | 'running';

const rowStatus = (record: CodonExecution): RowStatus => {
  if ((record as { budgetExceeded?: unknown }).budgetExceeded) return 'exceeded';
  if (record.status === 'completed' || record.status === 'failed' || record.status === 'skipped')
    return record.status;
  return 'running';
};

/**
 * The `budget.summary` payload (reference §3.3): the ceiling and allocation, one row per codon of
 * the plan that ran (status, the limits it ran under, what it spent over all its attempts), and
 * the totals. `limits` gives each codon's resolved limits; without them, its own caps.
 */
export function buildBudgetSummary(input: {
  config: HankConfig;
  state: HankweaveState;
  ceiling: BudgetCeiling;
  limits?: ReadonlyMap<string, CodonLimits>;
  nowMs: number;
}): EventData<'budget.summary'> {
  const { config, state, ceiling, limits, nowMs } = input;
  const records = new Map<string, CodonExecution[]>();
  for (const run of [...state.runs].reverse()) {
    for (const record of run.codons) {
      records.set(record.codonId, [...(records.get(record.codonId) ?? []), record]);
    }
  }
  const rows = state.executionPlan.flatMap((entry) => {
    const attempts = records.get(entry.codonId);
    const last = attempts?.at(-1);
    if (!attempts || !last) return [];
    const own = (entry.codon as { budget?: CodonLimits }).budget;
    const resolved = limits?.get(entry.codonId);
    const sum = (of: (record: CodonExecution) => number) =>
      attempts.reduce((total, record) => total + of(record), 0);
    return [
      {
        codonId: entry.codonId,
        ...(entry.loopContext
          ? {
              loopContext: {
                loopId: entry.loopContext.loopId,
                iteration: entry.loopContext.iteration,
                codonIndexInLoop: entry.loopContext.codonIndexInLoop,
              },
            }
          : {}),
        status: rowStatus(last),
        budget: {
          maxDollars: resolved?.maxDollars ?? own?.maxDollars ?? null,
          maxTimeSeconds: resolved?.maxTimeSeconds ?? own?.maxTimeSeconds ?? null,
          maxOutputTokens: resolved?.maxOutputTokens ?? own?.maxOutputTokens ?? null,
        },
        actual: {
          dollars: sum(recordDollars),
          timeSeconds: sum((record) => recordSeconds(record, nowMs)),
          outputTokens: sum(tokensOf),
        },
      },
    ];
  });
  return {
    ceiling: { ...ceiling },
    allocation: config.overrides?.budget?.allocation ?? 'shared',
    rows,
    totals: {
      ...(ceiling.maxDollars !== undefined ? { budgetDollars: ceiling.maxDollars } : {}),
      actualDollars: rows.reduce((total, row) => total + row.actual.dollars, 0),
      actualTimeSeconds: rows.reduce((total, row) => total + row.actual.timeSeconds, 0),
    },
  };
}

/**
 * Emits `budget.summary` once per runtime, when the hank has any budget: at shutdown, before the
 * run's `RunCompleted` / `RunFailed` (reference §3.3).
 */
export function emitBudgetSummary(context: RuntimeContext): void {
  if (summarized.has(context)) return;
  const ceiling = runtimeCeiling(context);
  if (!hankHasBudget(context.config, ceiling)) return;
  summarized.add(context);
  emit(
    context,
    'budget.summary',
    buildBudgetSummary({
      config: context.config,
      state: context.store.state,
      ceiling,
      ...(limitsSeen.has(context) ? { limits: limitsSeen.get(context) } : {}),
      nowMs: context.clock().getTime(),
    }),
  );
}

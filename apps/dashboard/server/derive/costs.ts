import { recordTokens } from '@hankweave/inspection';
import { codonCost, totalCost } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import type { CostsWire } from '../../src/api/types.js';
import { chronologicalRecords, planCodonOf, planModelOf } from './codon-bars.js';

/** What a codon record's model is called when the plan does not name one. */
export const UNKNOWN_MODEL = 'unknown';

/**
 * Costs per codon id (every record of every run: retries and rolled-back work count, as in
 * `totalCost`) in plan order, and per model (the plan's `codon.model`), most expensive first.
 * Sentinel costs are part of their codon's cost (`codonCost`), so they count for its model.
 */
export function costsOf(state: HankweaveState): CostsWire {
  const byCodon = new Map<string, CostsWire['byCodon'][number]>();
  const byModel = new Map<string, CostsWire['byModel'][number]>();
  for (const { record } of chronologicalRecords(state)) {
    const cost = codonCost(record);
    const codon = byCodon.get(record.codonId) ?? {
      codonId: record.codonId,
      name: planCodonOf(state, record.codonId)?.name ?? record.codonId,
      costUsd: 0,
      runs: 0,
    };
    codon.costUsd += cost;
    codon.runs += 1;
    byCodon.set(record.codonId, codon);

    const modelName = planModelOf(state, record.codonId) ?? UNKNOWN_MODEL;
    const model = byModel.get(modelName) ?? {
      model: modelName,
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    const tokens = recordTokens(record);
    model.costUsd += cost;
    model.inputTokens += tokens?.inputTokens ?? 0;
    model.outputTokens += tokens?.outputTokens ?? 0;
    byModel.set(modelName, model);
  }
  const planOrder = new Map(state.executionPlan.map((entry, index) => [entry.codonId, index]));
  const rank = (codonId: string) => planOrder.get(codonId) ?? Number.MAX_SAFE_INTEGER;
  return {
    totalUsd: totalCost(state),
    // Stable sort: codons missing from the plan keep their first-run order, after the plan's.
    byCodon: [...byCodon.values()].sort((a, b) => rank(a.codonId) - rank(b.codonId)),
    byModel: [...byModel.values()].sort((a, b) => b.costUsd - a.costUsd),
  };
}

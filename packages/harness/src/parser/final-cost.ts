import type { AgentResultLine, ModelCatalog, TokenUsage } from '@hankweave/types';
import type { ModelUsage } from '../agent-harness.js';
import { toTokenUsage } from './usage-ledger.js';

/** Final cost and tokens of a session, and where the cost came from. */
export interface FinalCost {
  finalCost: number;
  finalTokens: TokenUsage;
  modelUsage?: ModelUsage;
  source: 'total_cost_usd' | 'result-usage' | 'deltas';
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The result's `modelUsage`, in the `token.usage` shape; undefined when absent or empty. */
export function convertModelUsage(
  raw: AgentResultLine['modelUsage'] | ModelUsage,
): ModelUsage | undefined {
  if (!raw) return undefined;
  const converted: ModelUsage = {};
  for (const [model, entry] of Object.entries(raw)) {
    const record = entry as Record<string, unknown>;
    const item: ModelUsage[string] = {
      inputTokens: num(record.inputTokens) ?? 0,
      outputTokens: num(record.outputTokens) ?? 0,
      costUSD: num(record.costUSD) ?? 0,
    };
    const cacheRead = num(record.cacheReadInputTokens);
    const cacheCreation = num(record.cacheCreationInputTokens);
    if (cacheRead !== undefined) item.cacheReadInputTokens = cacheRead;
    if (cacheCreation !== undefined) item.cacheCreationInputTokens = cacheCreation;
    converted[model] = item;
  }
  return Object.keys(converted).length > 0 ? converted : undefined;
}

/**
 * Final cost in priority order (reference §4.8): the result's `total_cost_usd`, the priced result
 * usage, the accumulated deltas. Tokens come from the result's usage when it has one.
 *
 * A resumed session is different: Claude Code's `total_cost_usd` and `modelUsage` then cover the
 * whole session, earlier processes included, while `usage` covers this process only. So for a
 * resumed session `total_cost_usd` is skipped and `modelUsage` is built from the deltas: the
 * outcome is the cost of this attempt, and an extension never counts its predecessor twice.
 */
export function computeFinalCost(input: {
  result: AgentResultLine | undefined;
  model: string;
  deltas: { cost: number; tokens: TokenUsage; byModel: ModelUsage };
  models: ModelCatalog;
  resumed?: boolean;
}): FinalCost {
  const { result, deltas } = input;
  const finalTokens = result?.usage ? toTokenUsage(result.usage) : { ...deltas.tokens };
  const modelUsage = input.resumed
    ? convertModelUsage(deltas.byModel)
    : convertModelUsage(result?.modelUsage);
  const withUsage = (value: Omit<FinalCost, 'modelUsage'>): FinalCost =>
    modelUsage ? { ...value, modelUsage } : value;
  const total = input.resumed ? undefined : num(result?.total_cost_usd);
  if (total !== undefined)
    return withUsage({ finalCost: total, finalTokens, source: 'total_cost_usd' });
  if (result?.usage) {
    const priced = input.models.priceUsage(input.model, finalTokens);
    if (priced.known)
      return withUsage({ finalCost: priced.cost, finalTokens, source: 'result-usage' });
  }
  return withUsage({ finalCost: deltas.cost, finalTokens, source: 'deltas' });
}

const usd = (amount: number): string => `$${amount.toFixed(4)}`;

/**
 * The one warning about the final cost, if any, consistent with the "No price for model" warning
 * given during the run: when an unpriced model explains why the running cost was lower, the
 * agent's figure needs no second warning; when the agent reported none, the $0 stays and is said.
 */
export function finalCostWarning(
  final: FinalCost,
  runningCost: number,
  unpricedModels: readonly string[],
): string | undefined {
  const models = unpricedModels.map((model) => `"${model}"`).join(', ');
  if (final.source === 'deltas')
    return unpricedModels.length > 0
      ? `The agent reported no final cost: the tokens of ${models} stay counted at $0 (total ${usd(final.finalCost)})`
      : undefined;
  if (unpricedModels.length > 0 || Math.abs(final.finalCost - runningCost) <= 0.0001)
    return undefined;
  return `The agent's final cost ${usd(final.finalCost)} (${final.source}) differs from the running cost ${usd(runningCost)} priced with the model catalog; the agent's figure is used`;
}

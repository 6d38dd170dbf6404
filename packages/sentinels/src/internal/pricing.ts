import type { PriceUsage, SentinelUsage } from '../options.js';

// USD per million tokens [input, output], from Anthropic's public price list. Our own small table
// (the harness's pricing is an L2 sibling we may not import); the runtime can inject a fuller one.
const ANTHROPIC_PRICES: ReadonlyArray<readonly [prefix: string, input: number, output: number]> = [
  ['claude-opus-4-5', 5, 25],
  ['claude-opus-4-6', 5, 25],
  ['claude-opus-4-7', 5, 25],
  ['claude-opus-4', 15, 75],
  ['claude-sonnet-4', 3, 15],
  ['claude-3-7-sonnet', 3, 15],
  ['claude-3-5-sonnet', 3, 15],
  ['claude-haiku-4', 1, 5],
  ['claude-3-5-haiku', 0.8, 4],
  ['claude-3-haiku', 0.25, 1.25],
];

/** The built-in price of a call, or `undefined` for a model the table does not know. */
export function builtInPrice(modelId: string, usage: SentinelUsage): number | undefined {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1);
  const row = ANTHROPIC_PRICES.find(([prefix]) => name.startsWith(prefix));
  if (!row) return undefined;
  return (usage.inputTokens * row[1] + usage.outputTokens * row[2]) / 1_000_000;
}

/** The injected price first, then the built-in table; `undefined` when neither knows the model. */
export function priceCall(
  modelId: string,
  usage: SentinelUsage,
  injected: PriceUsage | undefined,
): number | undefined {
  return injected?.(modelId, usage) ?? builtInPrice(modelId, usage);
}

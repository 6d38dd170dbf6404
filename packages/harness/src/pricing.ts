import type { TokenUsage } from '@hankweave/types';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cache writes (`cache_creation_input_tokens`). */
  cacheWrite: number;
  /** Cache reads (`cache_read_input_tokens`). */
  cacheRead: number;
}

/** One row of the pricing table: a family and the versions that share a price. */
export interface PricingEntry {
  family: 'opus' | 'sonnet' | 'haiku';
  /** `major.minor`, e.g. `4.5`; a model id without a minor version is `major.0`. */
  versions: readonly string[];
  price: ModelPrice;
}

const price = (input: number, output: number, cacheWrite: number, cacheRead: number) => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

/**
 * Claude model prices. Rows for the 4.5+ and 5.x models were measured against Claude Code 2.1.329's
 * own `total_cost_usd`, so the running deltas add up to the agent's final figure; the others are
 * Anthropic's published list prices. Claude Code itself redirects some retired ids (for example
 * `claude-opus-4-1`) to a newer model, and the assistant lines then name the model that served.
 */
export const DEFAULT_PRICING: readonly PricingEntry[] = [
  { family: 'opus', versions: ['5.5'], price: price(4, 20, 5, 0.2) },
  { family: 'opus', versions: ['5.0', '4.5', '4.6', '4.7', '4.8'], price: price(5, 25, 6.25, 0.5) },
  { family: 'opus', versions: ['4.0', '4.1', '3.0'], price: price(15, 75, 18.75, 1.5) },
  { family: 'sonnet', versions: ['5.5'], price: price(2, 10, 2.5, 0.1) },
  { family: 'sonnet', versions: ['5.0'], price: price(2, 10, 2.5, 0.2) },
  {
    family: 'sonnet',
    versions: ['4.0', '4.5', '4.6', '3.7', '3.5'],
    price: price(3, 15, 3.75, 0.3),
  },
  { family: 'haiku', versions: ['5.5'], price: price(0.1, 0.5, 0.125, 0.01) },
  { family: 'haiku', versions: ['4.5'], price: price(1, 5, 1.25, 0.1) },
  { family: 'haiku', versions: ['3.5'], price: price(0.8, 4, 1, 0.08) },
  { family: 'haiku', versions: ['3.0'], price: price(0.25, 1.25, 0.3, 0.03) },
];

// `claude-opus-4-5`, `claude-sonnet-4-20250514`, `us.anthropic.claude-haiku-4-5-20251001-v1:0`,
// `claude-sonnet-4-5@20250929`: family then version. A minor has 1–2 digits; 8 digits are a date.
const NEW_STYLE = /claude-(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?(?!\d)/;
// `claude-3-5-haiku-20241022`, `claude-3-opus-20240229`: version then family.
const OLD_STYLE = /claude-(\d{1,2})(?:[-.](\d{1,2}))?-(opus|sonnet|haiku)/;

/** Family and `major.minor` of a Claude model id, or undefined for anything else. */
export function parseModelId(
  modelId: string,
): { family: PricingEntry['family']; version: string } | undefined {
  const id = modelId.toLowerCase();
  const fresh = NEW_STYLE.exec(id);
  if (fresh) {
    return {
      family: fresh[1] as PricingEntry['family'],
      version: `${fresh[2]}.${fresh[3] ?? '0'}`,
    };
  }
  const old = OLD_STYLE.exec(id);
  if (old) {
    return { family: old[3] as PricingEntry['family'], version: `${old[1]}.${old[2] ?? '0'}` };
  }
  return undefined;
}

/** The price of a model id, or undefined when the table does not know it. */
export function findModelPrice(
  modelId: string,
  table: readonly PricingEntry[] = DEFAULT_PRICING,
): ModelPrice | undefined {
  const parsed = parseModelId(modelId);
  if (!parsed) return undefined;
  return table.find(
    (entry) => entry.family === parsed.family && entry.versions.includes(parsed.version),
  )?.price;
}

/** USD for `usage` at `modelPrice`. */
export function costOfUsage(usage: TokenUsage, modelPrice: ModelPrice): number {
  return (
    (usage.inputTokens * modelPrice.input +
      usage.outputTokens * modelPrice.output +
      usage.cacheCreationTokens * modelPrice.cacheWrite +
      usage.cacheReadTokens * modelPrice.cacheRead) /
    1_000_000
  );
}

/**
 * Prices `usage` for `modelId`. An unknown model costs 0 and says so (`known: false`): tokens are
 * still counted, and the caller warns once.
 */
export function priceUsage(
  modelId: string,
  usage: TokenUsage,
  table: readonly PricingEntry[] = DEFAULT_PRICING,
): { cost: number; known: boolean } {
  const modelPrice = findModelPrice(modelId, table);
  return modelPrice
    ? { cost: costOfUsage(usage, modelPrice), known: true }
    : { cost: 0, known: false };
}

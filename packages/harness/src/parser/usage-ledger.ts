import {
  type AgentUsage,
  addTokenUsage,
  emptyTokenUsage,
  type ModelCatalog,
  type TokenUsage,
} from '@hankweave/types';

/** `AgentUsage` (snake case, nullable) → `TokenUsage`. */
export function toTokenUsage(usage: AgentUsage | null | undefined): TokenUsage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheCreationTokens: usage?.cache_creation_input_tokens ?? 0,
    cacheReadTokens: usage?.cache_read_input_tokens ?? 0,
  };
}

const FIELDS = ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens'] as const;

/** True when every count is zero. */
export function isZeroUsage(usage: TokenUsage): boolean {
  return FIELDS.every((field) => usage[field] === 0);
}

/**
 * Running tokens and cost of one session. Claude Code writes one line per content block of an API
 * message, each repeating the message's id and usage, so usage is counted per message id: a
 * repeat adds only what grew (per field), never the whole usage again.
 */
export class UsageLedger {
  totals: TokenUsage = emptyTokenUsage();
  cost = 0;
  /** Per model, in the `modelUsage` shape of a result. */
  readonly byModel: Record<
    string,
    {
      inputTokens: number;
      outputTokens: number;
      cacheReadInputTokens: number;
      cacheCreationInputTokens: number;
      costUSD: number;
    }
  > = {};
  private readonly seen = new Map<string, TokenUsage>();
  private readonly unpriced = new Set<string>();

  /** The models whose tokens were counted without a price (missing from the catalog). */
  get unpricedModels(): readonly string[] {
    return [...this.unpriced];
  }

  constructor(private readonly models: ModelCatalog) {}

  /**
   * Counts one assistant line's usage. Returns the increase, and `unpricedModel` the first time a
   * model is missing from the model catalog.
   */
  add(
    messageId: string | undefined,
    model: string,
    usage: TokenUsage,
  ): { tokens: TokenUsage; cost: number; unpricedModel?: string } {
    const previous = messageId === undefined ? undefined : this.seen.get(messageId);
    const delta = emptyTokenUsage();
    for (const field of FIELDS) delta[field] = Math.max(0, usage[field] - (previous?.[field] ?? 0));
    if (messageId !== undefined) {
      const high = previous ?? emptyTokenUsage();
      for (const field of FIELDS) high[field] = Math.max(high[field], usage[field]);
      this.seen.set(messageId, high);
    }
    const { cost, known } = this.models.priceUsage(model, delta);
    this.totals = addTokenUsage(this.totals, delta);
    this.cost += cost;
    if (!isZeroUsage(delta)) {
      const entry = this.byModel[model] ?? {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUSD: 0,
      };
      this.byModel[model] = entry;
      entry.inputTokens += delta.inputTokens;
      entry.outputTokens += delta.outputTokens;
      entry.cacheReadInputTokens += delta.cacheReadTokens;
      entry.cacheCreationInputTokens += delta.cacheCreationTokens;
      entry.costUSD += cost;
    }
    let unpricedModel: string | undefined;
    if (!known && !isZeroUsage(delta) && !this.unpriced.has(model)) {
      this.unpriced.add(model);
      unpricedModel = model;
    }
    return unpricedModel === undefined
      ? { tokens: delta, cost }
      : { tokens: delta, cost, unpricedModel };
  }
}

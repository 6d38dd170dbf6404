// Token counts: summed per codon and per run, and written as the GenAI conventions' attributes.
import type { TokenUsage } from '@hankweave/types';
import { GEN_AI, HANKWEAVE } from '../attributes.js';
import type { SpanAttributes } from '../span-record.js';
import { num } from './values.js';

/** Zero tokens of every kind: a fresh total. */
export const emptyUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
});

/** The token counts of an event's data (a token.usage event, a final-tokens record). */
export function usageOf(data: Record<string, unknown>): TokenUsage {
  return {
    inputTokens: num(data.inputTokens) ?? 0,
    outputTokens: num(data.outputTokens) ?? 0,
    cacheCreationTokens: num(data.cacheCreationTokens) ?? 0,
    cacheReadTokens: num(data.cacheReadTokens) ?? 0,
  };
}

/** Adds `add` to the total `into`, in place. */
export function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.inputTokens += add.inputTokens;
  into.outputTokens += add.outputTokens;
  into.cacheCreationTokens += add.cacheCreationTokens;
  into.cacheReadTokens += add.cacheReadTokens;
}

/** The GenAI conventions' usage attributes of hankweave's token counts. */
export function usageAttributes(usage: TokenUsage): SpanAttributes {
  // The conventions' input_tokens include cached tokens; hankweave's (Anthropic's) do not.
  return {
    [GEN_AI.inputTokens]: usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    [GEN_AI.cacheReadInputTokens]: usage.cacheReadTokens,
    [GEN_AI.cacheCreationInputTokens]: usage.cacheCreationTokens,
    [HANKWEAVE.uncachedInputTokens]: usage.inputTokens,
  };
}

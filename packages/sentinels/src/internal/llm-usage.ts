import type { TokenUsage } from '@hankweave/types';
import type { generateText, LanguageModelUsage } from 'ai';

// What the sentinels read of a model call without loading the AI SDK (type imports only): the
// SDK, its providers and Ajv load with the first sentinel (llm-stack.ts), not with the package.

/** The result of one successful call. */
export interface CallResult {
  outputType: 'text' | 'structured';
  content: unknown;
  usage: TokenUsage;
}

/**
 * The AI SDK's usage as a {@link TokenUsage}. The SDK's `inputTokens` is the total, cache reads
 * and writes included (Anthropic's `input_tokens + cache_*`); TokenUsage's `inputTokens` is the
 * uncached part, so each kind of token is priced once, at its own price. A provider that reports
 * no cache details is taken as uncached.
 */
export function tokenUsageOf(usage: Partial<LanguageModelUsage>): TokenUsage {
  const total = usage.inputTokens ?? 0;
  const cacheReadTokens = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheCreationTokens = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const uncached =
    usage.inputTokenDetails?.noCacheTokens ??
    Math.max(0, total - cacheReadTokens - cacheCreationTokens);
  return {
    inputTokens: uncached,
    outputTokens: usage.outputTokens ?? 0,
    cacheCreationTokens,
    cacheReadTokens,
  };
}

/** Every input token of a call, cached or not: what `sentinel.output` reports as `tokens.input`. */
export const totalInputTokens = (usage: TokenUsage): number =>
  usage.inputTokens + usage.cacheCreationTokens + usage.cacheReadTokens;

/** The prepared structured-output spec of a sentinel (validators compiled once, at load). */
export type StructuredSpec = () => Parameters<typeof generateText>[0]['output'];

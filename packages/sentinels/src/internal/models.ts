import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogle } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import {
  resolveSentinelProvider,
  type SentinelProvider,
  type SentinelProviderOptions,
} from '../sentinel-provider.js';

// A server named by a base URL may want no key, but the Anthropic, OpenAI, Google and Mistral
// packages would then read their own variable from process.env (or fail): they get this instead,
// as Pi's models.json does.
const NO_KEY = 'hankweave-no-key';

/**
 * Builds the AI SDK model for a sentinel's model id ({@link resolveSentinelProvider} decides the
 * provider, API, key and base URL). Every package gets its key and base URL explicitly, so
 * nothing is read from `process.env` behind the `env` given.
 * @throws {SentinelError} SENTINEL_PROVIDER_UNSUPPORTED or SENTINEL_PROVIDER_KEY_MISSING.
 */
export function resolveModel(
  modelId: string,
  options: SentinelProviderOptions,
): { model: LanguageModel; provider: SentinelProvider } {
  const provider = resolveSentinelProvider(modelId, options);
  const env = options.env ?? process.env;
  const key = provider.keyVariable === undefined ? undefined : env[provider.keyVariable];
  return { model: modelFor(provider, key), provider };
}

/**
 * The temperature a sentinel asks for when its config sets none: 0 (repeatable observations),
 * except on OpenAI's Responses API, whose current models (GPT-5, o-series) reason and take no
 * temperature: the AI SDK would drop it and warn on every call.
 */
export function defaultTemperatureFor(provider: SentinelProvider | undefined): number | undefined {
  return provider?.api === 'openai-responses' ? undefined : 0;
}

function modelFor(plan: SentinelProvider, key: string | undefined): LanguageModel {
  const { baseURL, model } = plan;
  const apiKey = key ?? NO_KEY;
  switch (plan.api) {
    case 'anthropic-messages':
      return createAnthropic({ apiKey, baseURL })(model);
    // What Pi speaks to OpenAI, and the AI SDK's default for it since AI SDK 5.
    case 'openai-responses':
      return createOpenAI({ apiKey, baseURL }).responses(model);
    case 'google-generative-ai':
      return createGoogle({ apiKey, baseURL })(model);
    case 'mistral-conversations':
      return createMistral({ apiKey, baseURL })(model);
    case 'openai-completions':
      return createOpenAICompatible({
        name: plan.provider,
        baseURL,
        ...(key !== undefined && { apiKey: key }),
        includeUsage: true,
      })(model);
  }
}

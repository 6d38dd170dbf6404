import { isPiBuiltInProvider, PI_DEFAULT_API, piApiOf, piBaseUrlFor } from './pi-api.js';
import type { PiModel } from './pi-model.js';

/** What decides the models.json of one start. */
export interface PiModelsJsonInput {
  model: PiModel;
  /** The provider's server. No base URL, no models.json: Pi's built-in table applies as it is. */
  baseUrl?: string;
  /** Forces Pi's API family for that server (see {@link piApiOf}). */
  api?: string;
  /** The variable holding the key (its name: Pi reads it from its env). */
  keyVariable?: string;
}

// Local servers usually want no key, but Pi needs one: a placeholder then.
const NO_KEY = 'hankweave-no-key';

/**
 * The models.json that points Pi's provider at a base URL, or undefined without one.
 *
 * - A provider Pi ships with (`openai`, `google`, `anthropic`, `openrouter`, …) gets only its
 *   `baseUrl` (and key) overridden: its built-in models stay, with their API family, reasoning
 *   flags, limits and prices, so `gpt-5.2` speaks the Responses API, `gemini-3-pro-preview`
 *   generateContent and `claude-sonnet-4-5` the Messages API. A model id Pi's catalog lacks
 *   runs on the provider's default model's settings (Pi's own fallback).
 * - A provider Pi does not know (`ollama`, `vllm`, any name), or any provider when `api` is
 *   forced, is declared as a custom provider with that API (default `openai-completions`) and
 *   the one model.
 *
 * The base URL is adjusted to the family's path convention ({@link piBaseUrlFor}).
 */
export function piModelsJson(input: PiModelsJsonInput): Record<string, unknown> | undefined {
  if (input.baseUrl === undefined) return undefined;
  const { provider, model } = input.model;
  const apiKey = input.keyVariable ?? NO_KEY;
  const baseUrl = piBaseUrlFor(piApiOf(provider, input.api), input.baseUrl);
  if (input.api === undefined && isPiBuiltInProvider(provider)) {
    return { providers: { [provider]: { baseUrl, apiKey } } };
  }
  return {
    providers: {
      [provider]: {
        baseUrl,
        api: input.api ?? PI_DEFAULT_API,
        apiKey,
        models: [{ id: model }],
      },
    },
  };
}

import { defaultModelCatalog } from '@hankweave/types';

const providers = new Map<string, string>();

/** The provider that serves a model id, by the model catalog (`anthropic`, `openai`, ...). */
export function providerOf(modelId: string): string {
  let provider = providers.get(modelId);
  if (provider === undefined) {
    try {
      provider = defaultModelCatalog.route(modelId).provider;
    } catch {
      provider = 'unknown';
    }
    // A run names a handful of models: the cache stays small (bounded anyway).
    if (providers.size < 1000) providers.set(modelId, provider);
  }
  return provider;
}

import { HarnessError } from '@hankweave/harness';
import {
  type ModelCatalog,
  providerGenericKeyName,
  providerKeyNames,
  selectHarness,
} from '@hankweave/types';

/** What Pi is asked to run for one model id of a hank. */
export interface PiModel {
  /** Pi's provider name (`openai`, `google`, `openrouter`, or a local server's). */
  provider: string;
  /** The provider-side model id. */
  model: string;
  /** Pi's `--thinking` level, from the id's effort suffix (OpenAI models default to `high`). */
  thinking?: 'high' | 'xhigh';
}

/**
 * Reads a hank's model id as reference §1.9 does (`gpt-5.2`, `gemini-3-pro-preview-high`,
 * `pi/openrouter/moonshotai/kimi-k2`). A provider the catalog cannot name (`unknown`) is only
 * usable with an explicit one.
 * @throws {HarnessError} HARNESS_INVALID_OPTIONS when no provider is known for the model.
 */
export function resolvePiModel(
  modelId: string,
  options: { catalog?: ModelCatalog; provider?: string } = {},
): PiModel {
  const selection = selectHarness(modelId, options.catalog);
  const provider = options.provider ?? selection.provider;
  if (provider === '' || provider === 'unknown') {
    throw new HarnessError(
      'HARNESS_INVALID_OPTIONS',
      `model "${modelId}" names no provider Pi knows: write it as pi/<provider>/<model>, or pass the harness's "provider" option`,
      { details: { field: 'model', model: modelId } },
    );
  }
  return {
    provider,
    model: selection.model,
    ...(selection.effort !== undefined && { thinking: selection.effort }),
  };
}

/**
 * The environment variable that holds the provider's key in `env`: the first of
 * `providerKeyNames(provider)` that is set, else `<PROVIDER>_API_KEY` when set. Its name (never
 * its value) goes into models.json, where Pi reads names as variables.
 */
export function providerKeyVariable(
  provider: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return [...providerKeyNames(provider), providerGenericKeyName(provider)].find(
    (name) => (env[name] ?? '') !== '',
  );
}

import { createAnthropic } from '@ai-sdk/anthropic';
import type { ModelCatalog } from '@hankweave/types';
import type { LanguageModel } from 'ai';
import { SentinelError } from '../errors.js';

type Env = Readonly<Record<string, string | undefined>>;

// HANKWEAVE_SENTINEL_<KEY> wins so sentinels can use another account than the agent.
const fromEnv = (env: Env, key: string): string | undefined =>
  env[`HANKWEAVE_SENTINEL_${key}`] || env[key] || undefined;

/**
 * Builds the AI SDK model for a sentinel's model id. The catalog routes the id (provider prefix,
 * aliases such as `haiku` → the newest haiku it lists, bare `claude-*` ids are Anthropic's).
 * Throws {@link SentinelError} `SENTINEL_PROVIDER_UNSUPPORTED` or `SENTINEL_PROVIDER_KEY_MISSING`.
 */
export function resolveModel(modelId: string, env: Env, catalog: ModelCatalog): LanguageModel {
  const { provider, model } = catalog.route(modelId);
  if (provider !== 'anthropic') {
    throw new SentinelError(
      'SENTINEL_PROVIDER_UNSUPPORTED',
      `Model ${modelId}: provider "${provider}" is not supported by sentinels yet (supported: anthropic)`,
      { details: { modelId, provider } },
    );
  }
  const apiKey = fromEnv(env, 'ANTHROPIC_API_KEY');
  if (!apiKey) {
    throw new SentinelError(
      'SENTINEL_PROVIDER_KEY_MISSING',
      `Model ${modelId} needs HANKWEAVE_SENTINEL_ANTHROPIC_API_KEY or ANTHROPIC_API_KEY`,
      { details: { modelId } },
    );
  }
  const base = fromEnv(env, 'ANTHROPIC_BASE_URL');
  // ANTHROPIC_BASE_URL is the host root (as Claude Code reads it); the AI SDK wants the /v1 prefix.
  const baseURL = base ? `${base.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1` : undefined;
  return createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(model);
}

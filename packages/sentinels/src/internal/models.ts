import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModel } from 'ai';
import { SentinelError } from '../errors.js';

const SHORTCUTS: Readonly<Record<string, string>> = {
  haiku: 'anthropic/claude-haiku-4-5',
  sonnet: 'anthropic/claude-sonnet-4-6',
  opus: 'anthropic/claude-opus-4-7',
};

/** `anthropic/claude-haiku-4-5` → provider and model name; bare `claude-*` ids are Anthropic's. */
export function parseModelId(modelId: string): { provider: string; name: string } {
  const full = SHORTCUTS[modelId] ?? modelId;
  const slash = full.indexOf('/');
  if (slash > 0) return { provider: full.slice(0, slash), name: full.slice(slash + 1) };
  return { provider: full.startsWith('claude') ? 'anthropic' : 'unknown', name: full };
}

type Env = Readonly<Record<string, string | undefined>>;

// HANKWEAVE_SENTINEL_<KEY> wins so sentinels can use another account than the agent.
const fromEnv = (env: Env, key: string): string | undefined =>
  env[`HANKWEAVE_SENTINEL_${key}`] || env[key] || undefined;

/**
 * Builds the AI SDK model for a sentinel's model id. Throws {@link SentinelError}
 * `SENTINEL_PROVIDER_UNSUPPORTED` or `SENTINEL_PROVIDER_KEY_MISSING`.
 */
export function resolveModel(modelId: string, env: Env): LanguageModel {
  const { provider, name } = parseModelId(modelId);
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
  return createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(name);
}

import {
  defaultModelCatalog,
  type ModelCatalog,
  providerBaseUrlName,
  providerGenericKeyName,
  providerKeyNames,
  selectHarness,
} from '@hankweave/types';
import { SentinelError } from './errors.js';

/**
 * The model APIs a sentinel can speak, named as Pi names them (so the runtime's `piApi` means the
 * same here), and the AI SDK provider package that speaks each.
 */
export const SENTINEL_APIS = {
  'anthropic-messages': '@ai-sdk/anthropic',
  'openai-responses': '@ai-sdk/openai',
  'google-generative-ai': '@ai-sdk/google',
  'mistral-conversations': '@ai-sdk/mistral',
  'openai-completions': '@ai-sdk/openai-compatible',
} as const;

/** One of the keys of {@link SENTINEL_APIS}. */
export type SentinelApi = keyof typeof SENTINEL_APIS;

// The providers Pi (0.73.1) ships with, the API its models speak and the endpoint its registry
// gives, for the providers whose API is one of ours. A sentinel speaks what the agent speaks, so
// one `<PROVIDER>_BASE_URL` serves both. Endpoints are as Pi writes them; each API's convention
// (a `/v1` or not) is applied by `baseUrlFor`.
const KNOWN_PROVIDERS: Readonly<Record<string, { api: SentinelApi; baseUrl: string }>> = {
  anthropic: { api: 'anthropic-messages', baseUrl: 'https://api.anthropic.com' },
  openai: { api: 'openai-responses', baseUrl: 'https://api.openai.com/v1' },
  google: {
    api: 'google-generative-ai',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  },
  mistral: { api: 'mistral-conversations', baseUrl: 'https://api.mistral.ai' },
  cerebras: { api: 'openai-completions', baseUrl: 'https://api.cerebras.ai/v1' },
  deepseek: { api: 'openai-completions', baseUrl: 'https://api.deepseek.com' },
  groq: { api: 'openai-completions', baseUrl: 'https://api.groq.com/openai/v1' },
  huggingface: { api: 'openai-completions', baseUrl: 'https://router.huggingface.co/v1' },
  moonshotai: { api: 'openai-completions', baseUrl: 'https://api.moonshot.ai/v1' },
  'moonshotai-cn': { api: 'openai-completions', baseUrl: 'https://api.moonshot.cn/v1' },
  'opencode-go': { api: 'openai-completions', baseUrl: 'https://opencode.ai/zen/go/v1' },
  openrouter: { api: 'openai-completions', baseUrl: 'https://openrouter.ai/api/v1' },
  xai: { api: 'openai-completions', baseUrl: 'https://api.x.ai/v1' },
  zai: { api: 'openai-completions', baseUrl: 'https://api.z.ai/api/coding/paas/v4' },
  fireworks: { api: 'anthropic-messages', baseUrl: 'https://api.fireworks.ai/inference' },
  'kimi-coding': { api: 'anthropic-messages', baseUrl: 'https://api.kimi.com/coding' },
  minimax: { api: 'anthropic-messages', baseUrl: 'https://api.minimax.io/anthropic' },
  'minimax-cn': { api: 'anthropic-messages', baseUrl: 'https://api.minimaxi.com/anthropic' },
  'vercel-ai-gateway': { api: 'anthropic-messages', baseUrl: 'https://ai-gateway.vercel.sh' },
  xiaomi: { api: 'anthropic-messages', baseUrl: 'https://api.xiaomimimo.com/anthropic' },
  'xiaomi-token-plan-ams': {
    api: 'anthropic-messages',
    baseUrl: 'https://token-plan-ams.xiaomimimo.com/anthropic',
  },
  'xiaomi-token-plan-cn': {
    api: 'anthropic-messages',
    baseUrl: 'https://token-plan-cn.xiaomimimo.com/anthropic',
  },
  'xiaomi-token-plan-sgp': {
    api: 'anthropic-messages',
    baseUrl: 'https://token-plan-sgp.xiaomimimo.com/anthropic',
  },
};

// Providers Pi runs through something other than an API key and a base URL of ours: cloud
// signing (Bedrock, Vertex), Azure's own client, a login (Copilot, Codex), an endpoint built from
// account ids, or an API that differs per model. Sentinels refuse them rather than guess.
const UNSUPPORTED_PROVIDERS: Readonly<Record<string, string>> = {
  'amazon-bedrock': 'it signs requests with AWS credentials',
  'google-vertex': 'it signs requests with Google Cloud credentials',
  'azure-openai-responses': "it needs Azure's own client",
  'github-copilot': 'it needs a GitHub Copilot login',
  'openai-codex': 'it needs a ChatGPT login',
  'cloudflare-ai-gateway': 'its API differs per model',
  opencode: 'its API differs per model',
};

type Env = Readonly<Record<string, string | undefined>>;

/** Where a sentinel's model is served, and how: what {@link resolveSentinelProvider} decides. */
export interface SentinelProvider {
  /** The provider of the model id (`openai`, `google`, `ollama`, …), as the catalog routes it. */
  provider: string;
  /** The provider-side model name: no prefix, no effort suffix, an alias expanded. */
  model: string;
  /** The API the sentinel speaks. */
  api: SentinelApi;
  /** The AI SDK provider package that speaks it (`@ai-sdk/openai`, …). */
  packageName: (typeof SENTINEL_APIS)[SentinelApi];
  /** The base URL handed to that package (its own convention: `…/v1` for Anthropic's). */
  baseURL: string;
  /**
   * Where `baseURL` came from: `option` (the `baseUrl` option), the variable's name
   * (`OPENAI_BASE_URL`, `HANKWEAVE_SENTINEL_OPENAI_BASE_URL`), or `default` (the provider's own).
   */
  baseUrlFrom: string;
  /** The variable the key is read from (never the key); absent when none is set. */
  keyVariable?: string;
}

/** How {@link resolveSentinelProvider} reads a model id and the environment. */
export interface SentinelProviderOptions {
  /** Provider keys and base URLs (default `process.env`). */
  env?: Env;
  /** Routes the id to a provider and model (default `defaultModelCatalog`). */
  models?: ModelCatalog;
  /**
   * One server for every provider but Anthropic, in each provider's own API (the runtime's
   * `piBaseUrl`, as Pi codons get it); it wins over `<PROVIDER>_BASE_URL`.
   */
  baseUrl?: string;
  /**
   * Forces the API spoken to a base URL (`openai-completions` for a server without OpenAI's
   * Responses API; the runtime's `piApi`). Ignored for Anthropic and without a base URL.
   */
  api?: string;
}

// HANKWEAVE_SENTINEL_<NAME> wins so sentinels can use another account than the agent.
const SENTINEL_PREFIX = 'HANKWEAVE_SENTINEL_';

function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of [...names.map((n) => `${SENTINEL_PREFIX}${n}`), ...names]) {
    const value = env[name];
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}

/**
 * The base URL in the AI SDK package's convention. The Anthropic and Mistral packages want the
 * `/v1` that their own SDKs (which Claude Code and Pi use) append: a variable is the host root,
 * with or without `/v1`, as the agents take it. The others are the prefix their paths go under
 * (`…/v1` for OpenAI's, `…/v1beta` for Gemini's), as given.
 */
function baseUrlFor(api: SentinelApi, baseUrl: string): string {
  const bare = baseUrl.replace(/\/+$/, '');
  if (api !== 'anthropic-messages' && api !== 'mistral-conversations') return bare;
  return `${bare.replace(/\/v1$/, '')}/v1`;
}

function isSentinelApi(api: string): api is SentinelApi {
  return Object.hasOwn(SENTINEL_APIS, api);
}

/**
 * Decides how a sentinel reaches its model, the way the agents would: the catalog routes the id
 * (`openai/gpt-5.2`, `gpt-5.2`, `gemini-…`, `pi/<provider>/<model>`, `sonnet`; an effort suffix
 * is dropped), the provider's API is the one Pi speaks to it, and the key and base URL come from
 * the variables the agents read (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, …, each also as
 * `HANKWEAVE_SENTINEL_<NAME>`, which wins). A provider Pi does not know (`ollama`, `vllm`) is an
 * OpenAI-compatible server named by `<PROVIDER>_BASE_URL`. A key is needed unless a base URL
 * names the server.
 * @throws {SentinelError} SENTINEL_PROVIDER_UNSUPPORTED when the id names no provider, the
 * provider is one sentinels cannot call, a provider without a known endpoint has no base URL, or
 * `api` is not one of {@link SENTINEL_APIS}.
 * @throws {SentinelError} SENTINEL_PROVIDER_KEY_MISSING when the provider's own endpoint is used
 * and none of its key variables is set.
 */
export function resolveSentinelProvider(
  modelId: string,
  options: SentinelProviderOptions = {},
): SentinelProvider {
  const env = options.env ?? process.env;
  const { provider, model } = selectHarness(modelId, options.models ?? defaultModelCatalog);
  const refuse = (message: string, details: Record<string, unknown> = {}) =>
    new SentinelError('SENTINEL_PROVIDER_UNSUPPORTED', `Model ${modelId}: ${message}`, {
      details: { modelId, provider, ...details },
    });
  if (provider === 'unknown') {
    throw refuse(
      'names no provider; write it as <provider>/<model> (openai/gpt-5.2, google/gemini-3-pro-preview, mistral/mistral-large-latest, ollama/llama3.3 with OLLAMA_BASE_URL)',
    );
  }
  if (Object.hasOwn(UNSUPPORTED_PROVIDERS, provider)) {
    throw refuse(
      `sentinels cannot call provider "${provider}": ${UNSUPPORTED_PROVIDERS[provider]}`,
    );
  }
  const known = Object.hasOwn(KNOWN_PROVIDERS, provider) ? KNOWN_PROVIDERS[provider] : undefined;
  const urlVariable = providerBaseUrlName(provider);
  const fromEnv = firstSet(env, [urlVariable]);
  const option = provider === 'anthropic' ? undefined : options.baseUrl;
  const configured = option !== undefined ? { name: 'option', value: option } : fromEnv;
  const baseUrl = configured?.value ?? known?.baseUrl;
  if (baseUrl === undefined) {
    throw refuse(
      `provider "${provider}" has no endpoint sentinels know; set ${urlVariable} to its OpenAI-compatible base URL (e.g. http://127.0.0.1:11434/v1)`,
      { variable: urlVariable },
    );
  }
  let api: SentinelApi = known?.api ?? 'openai-completions';
  if (options.api !== undefined && configured !== undefined && provider !== 'anthropic') {
    if (!isSentinelApi(options.api)) {
      throw refuse(
        `the API "${options.api}" is not one sentinels speak (${Object.keys(SENTINEL_APIS).join(', ')})`,
        { api: options.api },
      );
    }
    api = options.api;
  }
  const keyNames = [...new Set([...providerKeyNames(provider), providerGenericKeyName(provider)])];
  const key = firstSet(env, keyNames);
  if (key === undefined && configured === undefined) {
    const names = [...keyNames.map((name) => `${SENTINEL_PREFIX}${name}`), ...keyNames];
    throw new SentinelError(
      'SENTINEL_PROVIDER_KEY_MISSING',
      `Model ${modelId} needs an API key for provider "${provider}": set ${names.join(' or ')} (or name a server with ${urlVariable})`,
      { details: { modelId, provider, variables: names } },
    );
  }
  return {
    provider,
    model,
    api,
    packageName: SENTINEL_APIS[api],
    baseURL: baseUrlFor(api, baseUrl),
    baseUrlFrom: configured?.name ?? 'default',
    ...(key !== undefined && { keyVariable: key.name }),
  };
}

/**
 * Pi's API families (pi-ai's `KnownApi`) that a local server can answer for: the scripted model
 * speaks all six (Mistral's is Chat Completions with the usage on the finishing chunk, Azure's is
 * Responses with an `api-key` header). Pi knows others (`bedrock-converse-stream` with AWS
 * signing, `google-vertex` with Google credentials, Codex's Responses behind a login); they pass
 * through as strings.
 */
export type PiApi =
  | 'openai-completions'
  | 'openai-responses'
  | 'azure-openai-responses'
  | 'anthropic-messages'
  | 'google-generative-ai'
  | 'mistral-conversations';

/** The family a provider Pi does not know is declared with: the one every local server speaks. */
export const PI_DEFAULT_API: PiApi = 'openai-completions';

// Pi 0.73.1's built-in providers and the API their models speak (`null`: it differs per model).
// A test checks this table against the installed Pi's catalog; a newer Pi's new providers are
// declared as unknown ones until they are added here.
const BUILT_IN_PROVIDER_APIS: Readonly<Record<string, string | null>> = {
  'amazon-bedrock': 'bedrock-converse-stream',
  anthropic: 'anthropic-messages',
  'azure-openai-responses': 'azure-openai-responses',
  cerebras: 'openai-completions',
  'cloudflare-ai-gateway': null,
  'cloudflare-workers-ai': 'openai-completions',
  deepseek: 'openai-completions',
  fireworks: 'anthropic-messages',
  'github-copilot': null,
  google: 'google-generative-ai',
  'google-vertex': 'google-vertex',
  groq: 'openai-completions',
  huggingface: 'openai-completions',
  'kimi-coding': 'anthropic-messages',
  minimax: 'anthropic-messages',
  'minimax-cn': 'anthropic-messages',
  mistral: 'mistral-conversations',
  moonshotai: 'openai-completions',
  'moonshotai-cn': 'openai-completions',
  openai: 'openai-responses',
  'openai-codex': 'openai-codex-responses',
  opencode: null,
  'opencode-go': 'openai-completions',
  openrouter: 'openai-completions',
  'vercel-ai-gateway': 'anthropic-messages',
  xai: 'openai-completions',
  xiaomi: 'anthropic-messages',
  'xiaomi-token-plan-ams': 'anthropic-messages',
  'xiaomi-token-plan-cn': 'anthropic-messages',
  'xiaomi-token-plan-sgp': 'anthropic-messages',
  zai: 'openai-completions',
};

/** Pi's built-in providers (0.73.1), sorted. */
export const PI_BUILT_IN_PROVIDERS: readonly string[] = Object.keys(BUILT_IN_PROVIDER_APIS).sort();

/** True for a provider Pi ships with (its models, their API and prices are in Pi's catalog). */
export function isPiBuiltInProvider(provider: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDER_APIS, provider);
}

/**
 * The API family Pi speaks for a provider: the forced `api` when given, else the built-in
 * provider's (`openai` → `openai-responses`, `google` → `google-generative-ai`, `anthropic` →
 * `anthropic-messages`, `openrouter` → `openai-completions`, …), else `openai-completions` for a
 * provider Pi does not know (Ollama, vLLM, any custom name). Undefined for a built-in provider
 * whose models differ (`github-copilot`, `opencode`, `cloudflare-ai-gateway`).
 */
export function piApiOf(provider: string, api?: string): string | undefined {
  if (api !== undefined) return api;
  if (!isPiBuiltInProvider(provider)) return PI_DEFAULT_API;
  return BUILT_IN_PROVIDER_APIS[provider] ?? undefined;
}

/**
 * The base URL to give Pi for a server of the `api` family. Each family's client appends its own
 * path: the OpenAI SDK `/chat/completions` or `/responses` (the base ends in `/v1`), Google's
 * `/models/<model>:streamGenerateContent` (the base ends in the version, `/v1beta`), the
 * Anthropic and Mistral SDKs `/v1/messages` and `/v1/chat/completions` (the base has no
 * version). So one URL ending in `/v1`, as OpenAI-compatible servers are named, loses that `/v1`
 * for those two families only; the others are kept as given.
 */
export function piBaseUrlFor(api: string | undefined, baseUrl: string): string {
  if (api !== 'anthropic-messages' && api !== 'mistral-conversations') return baseUrl;
  return baseUrl.replace(/\/v1\/?$/, '');
}

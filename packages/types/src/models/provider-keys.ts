// The environment variables holding each provider's API key (reference §1.9 and §4.3's
// `PROVIDER_CREDENTIALS`). Bedrock has none: it uses the ambient AWS credentials. The original
// runs Pi in its own process, so Pi saw the whole environment; ours runs Pi with the agent's
// filtered environment, so every name Pi reads a key from must be listed to reach it.
const PROVIDER_KEYS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  // `GOOGLE_API_KEY` was dropped in the original's 0.8: only `GEMINI_API_KEY` counts.
  google: ['GEMINI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  zai: ['ZAI_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  groq: ['GROQ_API_KEY'],
  // The providers Pi runs besides those, under the variable names Pi (0.73.1) reads. Providers
  // that sign in another way (Bedrock and Vertex with their cloud's credentials, GitHub Copilot
  // and OpenAI Codex with a login) have none here.
  'azure-openai-responses': ['AZURE_OPENAI_API_KEY'],
  cerebras: ['CEREBRAS_API_KEY'],
  'cloudflare-ai-gateway': ['CLOUDFLARE_API_KEY'],
  'cloudflare-workers-ai': ['CLOUDFLARE_API_KEY'],
  fireworks: ['FIREWORKS_API_KEY'],
  huggingface: ['HF_TOKEN'],
  'kimi-coding': ['KIMI_API_KEY'],
  minimax: ['MINIMAX_API_KEY'],
  'minimax-cn': ['MINIMAX_CN_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  moonshotai: ['MOONSHOT_API_KEY'],
  'moonshotai-cn': ['MOONSHOT_API_KEY'],
  opencode: ['OPENCODE_API_KEY'],
  'opencode-go': ['OPENCODE_API_KEY'],
  'vercel-ai-gateway': ['AI_GATEWAY_API_KEY'],
  xai: ['XAI_API_KEY'],
  xiaomi: ['XIAOMI_API_KEY'],
  'xiaomi-token-plan-ams': ['XIAOMI_TOKEN_PLAN_AMS_API_KEY'],
  'xiaomi-token-plan-cn': ['XIAOMI_TOKEN_PLAN_CN_API_KEY'],
  'xiaomi-token-plan-sgp': ['XIAOMI_TOKEN_PLAN_SGP_API_KEY'],
};

/**
 * The environment variables that can hold `provider`'s API key, any one of which is enough
 * (`openai` → `OPENAI_API_KEY`). Empty for a provider without a key of its own (a local
 * OpenAI-compatible server, Bedrock, an unknown provider): a preflight then has nothing to check.
 */
export function providerKeyNames(provider: string): readonly string[] {
  const key = provider.toLowerCase();
  return Object.hasOwn(PROVIDER_KEYS, key) ? (PROVIDER_KEYS[key] as readonly string[]) : [];
}

const envPrefix = (provider: string): string => provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** `<PROVIDER>_API_KEY` (`MY_SERVER_API_KEY`): the name any provider's key is also taken under. */
export function providerGenericKeyName(provider: string): string {
  return `${envPrefix(provider)}_API_KEY`;
}

/**
 * The variable naming a provider's endpoint (a local server, a proxy): `<PROVIDER>_BASE_URL`
 * (`OPENAI_BASE_URL`), except Azure's, which Pi reads as `AZURE_OPENAI_BASE_URL`.
 */
export function providerBaseUrlName(provider: string): string {
  if (provider.toLowerCase() === 'azure-openai-responses') return 'AZURE_OPENAI_BASE_URL';
  return `${envPrefix(provider)}_BASE_URL`;
}

// The environment variables holding each provider's API key (reference §1.9 and §4.3's
// `PROVIDER_CREDENTIALS`). Bedrock has none: it uses the ambient AWS credentials.
const PROVIDER_KEYS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  // `GOOGLE_API_KEY` was dropped in the original's 0.8: only `GEMINI_API_KEY` counts.
  google: ['GEMINI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  zai: ['ZAI_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  groq: ['GROQ_API_KEY'],
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

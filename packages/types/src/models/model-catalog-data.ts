import type { ModelEntry } from './model-entry.js';

// The model catalog's data: the one place to change when a model or a price changes.
//
// Prices are USD per million tokens. Rows for the 4.5+ and 5.x Claude models were measured
// against Claude Code 2.1.329's own `total_cost_usd`, so priced deltas add up to the agent's final
// figure; the older rows are Anthropic's published list prices. `cacheWrite` prices
// `cache_creation_input_tokens`, `cacheRead` prices `cache_read_input_tokens`. The context window
// is the standard one (the 1M-token betas are opt-in and priced differently).
//
// Rows of other providers run on the Pi harness (reference §1.9). Their prices are the list prices
// of the standard tier (prompts up to the long-context threshold; the dearer long-context tier is
// not modelled), as public pricing pages state them: GitHub Docs' Copilot "models and pricing"
// table (github/docs, data/tables/copilot/models-and-pricing.yml), which lists the providers'
// per-token prices, and for Gemini 3 Pro Preview Google's Gemini API pricing as quoted by
// aifreeapi.com ("Gemini API Pricing 2026") and evolink.ai. A provider without a cache-write
// charge gets its input price there (a cache write is billed as ordinary input). A model whose
// price no public page states gets a row without `price`: its usage counts at $0 with a warning.
//
// `sonnet`, `opus` and `haiku` resolve to the newest version of their family listed here, so
// adding a row for a new version moves the alias with no other change.

const claude = (
  family: 'opus' | 'sonnet' | 'haiku',
  version: string,
  [input, output, cacheWrite, cacheRead]: readonly [number, number, number, number],
): ModelEntry => {
  const [major, minor] = version.split('.');
  const id =
    Number(major) >= 4
      ? `claude-${family}-${major}${minor === '0' ? '' : `-${minor}`}`
      : `claude-${major}${minor === '0' ? '' : `-${minor}`}-${family}`;
  return {
    id,
    provider: 'anthropic',
    family,
    version,
    contextWindow: 200_000,
    price: { input, output, cacheWrite, cacheRead },
  };
};

const priced = (input: number, output: number, cacheWrite: number, cacheRead: number) => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

const OPUS_5_5 = [4, 20, 5, 0.2] as const;
const OPUS_4_5 = [5, 25, 6.25, 0.5] as const;
const OPUS_4 = [15, 75, 18.75, 1.5] as const;
const SONNET_5_5 = [2, 10, 2.5, 0.1] as const;
const SONNET_5 = [2, 10, 2.5, 0.2] as const;
const SONNET_4 = [3, 15, 3.75, 0.3] as const;

/** Every model the catalog knows, newest first within each family. */
export const MODEL_CATALOG: readonly ModelEntry[] = [
  claude('opus', '5.5', OPUS_5_5),
  claude('opus', '5.0', OPUS_4_5),
  claude('opus', '4.8', OPUS_4_5),
  claude('opus', '4.7', OPUS_4_5),
  claude('opus', '4.6', OPUS_4_5),
  claude('opus', '4.5', OPUS_4_5),
  claude('opus', '4.1', OPUS_4),
  claude('opus', '4.0', OPUS_4),
  claude('opus', '3.0', OPUS_4),
  claude('sonnet', '5.5', SONNET_5_5),
  claude('sonnet', '5.0', SONNET_5),
  claude('sonnet', '4.6', SONNET_4),
  claude('sonnet', '4.5', SONNET_4),
  claude('sonnet', '4.0', SONNET_4),
  claude('sonnet', '3.7', SONNET_4),
  claude('sonnet', '3.5', SONNET_4),
  claude('haiku', '5.5', [0.1, 0.5, 0.125, 0.01]),
  claude('haiku', '4.5', [1, 5, 1.25, 0.1]),
  claude('haiku', '3.5', [0.8, 4, 1, 0.08]),
  claude('haiku', '3.0', [0.25, 1.25, 0.3, 0.03]),
  // OpenAI: GPT-5.2 $1.75 / $14 with cached input $0.175, no cache-write charge; 400K context.
  {
    id: 'gpt-5.2',
    provider: 'openai',
    contextWindow: 400_000,
    price: priced(1.75, 14, 1.75, 0.175),
  },
  // Google: Gemini 3 Pro Preview, prompts up to 200K: $2 / $12, cached input $0.20; 1M context.
  {
    id: 'gemini-3-pro-preview',
    provider: 'google',
    contextWindow: 1_048_576,
    price: priced(2, 12, 2, 0.2),
  },
];

import { claudeVersionOf } from './claude-version.js';
import type { ModelEntry } from './model-entry.js';
import { piRegistryEntries } from './pi-registry.js';
import { PI_REGISTRY_ROWS } from './pi-registry-data.js';

// The model catalog's data: Anthropic's Claude models, measured by hand, merged with every model
// of Pi's registry (pi-registry-data.ts, generated from the installed @mariozechner/pi-ai by
// `pnpm --filter @hankweave/types catalog:refresh`).
//
// Which source wins:
// - Claude models (provider `anthropic`): the hand rows below. Prices are USD per million
//   tokens. Rows for the 4.5+ and 5.x Claude models were measured against Claude Code 2.1.329's
//   own `total_cost_usd`, so priced deltas add up to the agent's final figure, and the catalog
//   knows Claude versions Pi's registry does not list yet; the older rows are Anthropic's
//   published list prices. `cacheWrite` prices `cache_creation_input_tokens`, `cacheRead`
//   `cache_read_input_tokens`. The context window is the standard one: Pi lists 1M tokens for
//   some (the 1M-token betas are opt-in and priced differently). A Pi `anthropic` row whose
//   family and version a hand row covers (`claude-sonnet-4-5-20250929`) is left out; the others
//   (`claude-3-sonnet-20240229`) are kept.
// - Every other provider's model: Pi's registry, which Pi generates from models.dev; its prices
//   are those Pi itself charges a session. Bare Claude ids resolve to the hand rows, so a
//   gateway's Claude row (`pi/openrouter/anthropic/claude-sonnet-4.5`) is priced by its
//   provider only when the provider is named.
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
    api: 'anthropic-messages',
    harness: 'claude-code',
  };
};

const OPUS_5_5 = [4, 20, 5, 0.2] as const;
const OPUS_4_5 = [5, 25, 6.25, 0.5] as const;
const OPUS_4 = [15, 75, 18.75, 1.5] as const;
const SONNET_5_5 = [2, 10, 2.5, 0.1] as const;
const SONNET_5 = [2, 10, 2.5, 0.2] as const;
const SONNET_4 = [3, 15, 3.75, 0.3] as const;

/** The hand-measured Claude rows, newest first within each family. */
const CLAUDE_MODELS: readonly ModelEntry[] = [
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
];

const covered = new Set(CLAUDE_MODELS.map((entry) => `${entry.family}@${entry.version}`));
const coveredByHand = (entry: ModelEntry): boolean => {
  if (entry.provider !== 'anthropic') return false;
  const claude = claudeVersionOf(entry.id);
  return claude !== undefined && covered.has(`${claude.family}@${claude.version}`);
};

/**
 * Every model the catalog knows: the hand-measured Claude rows, then Pi's registry without the
 * Claude rows those cover, providers serving their own models before resellers (the order in
 * which a bare id that several providers list is settled).
 */
export const MODEL_CATALOG: readonly ModelEntry[] = [
  ...CLAUDE_MODELS,
  ...piRegistryEntries(PI_REGISTRY_ROWS).filter((entry) => !coveredByHand(entry)),
];

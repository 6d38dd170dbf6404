/** The agent harnesses a model can run on (reference §1.9). */
export const HARNESS_NAMES = ['claude-code', 'pi'] as const;
/** One of {@link HARNESS_NAMES}. */
export type HarnessName = (typeof HARNESS_NAMES)[number];

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cache writes (`cache_creation_input_tokens`). */
  cacheWrite: number;
  /** Cache reads (`cache_read_input_tokens`). */
  cacheRead: number;
}

/** One model of the catalog. */
export interface ModelEntry {
  /** The canonical id (`claude-sonnet-4-5`); dated, regional and prefixed ids resolve to it. */
  id: string;
  /** Who serves it (`anthropic`, `openai`, `google`, ...): Pi's provider name. */
  provider: string;
  /** The family an alias names (`sonnet`), for families with versions. */
  family?: string;
  /** `major.minor` within the family (`4.5`; `4.0` for an id without a minor). */
  version?: string;
  /** Input tokens the model accepts. */
  contextWindow: number;
  /**
   * List prices. Absent when no public price could be cited: the model's usage then costs 0 USD
   * (`priceUsage` says `known: false`, the parser warns, and budget warning W4 flags a dollar
   * budget on it).
   */
  price?: ModelPrice;
  /**
   * The API family the provider speaks for it, in Pi's names (`anthropic-messages`,
   * `openai-responses`, `openai-completions`, `google-generative-ai`, `mistral-conversations`,
   * `bedrock-converse-stream`, …). Every built-in row has one.
   */
  api?: string;
  /**
   * The harness that runs it when the id does not force one: `claude-code` for Anthropic's
   * models, `pi` for every other provider's. Every built-in row has one; without it
   * `selectHarness` decides by the provider.
   */
  harness?: HarnessName;
}

/**
 * One model of Pi's registry as the generated data file holds it: provider, id, API family,
 * context window, then the prices in USD per million tokens (input, output, cache read, cache
 * write) as Pi lists them.
 */
export type PiRegistryRow = readonly [
  provider: string,
  id: string,
  api: string,
  contextWindow: number,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
];

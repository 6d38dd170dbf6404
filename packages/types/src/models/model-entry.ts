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
  /** Who serves it (`anthropic`, `openai`, `google`, ...). */
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
}

import type { HarnessName } from '@hankweave/types';

/**
 * The verdict on one model: `ok`, or the first thing in the way, in the order they are checked:
 * the catalog does not know the id (`unknown-model`), its harness is not installed
 * (`not-installed`) or does not start (`launch-failed`), its provider's key is not set
 * (`no-key`), then what the one request said: the key was refused (`bad-key`), the endpoint did
 * not answer (`unreachable`), the provider does not serve the model (`model-not-served`), or
 * another failure (`failed`).
 */
export const MODEL_ACCESS_STATUSES = [
  'ok',
  'unknown-model',
  'not-installed',
  'launch-failed',
  'no-key',
  'bad-key',
  'unreachable',
  'model-not-served',
  'failed',
] as const;
/** One of {@link MODEL_ACCESS_STATUSES}. */
export type ModelAccessStatus = (typeof MODEL_ACCESS_STATUSES)[number];

/** What {@link checkModelAccess} found for one model id. */
export interface ModelAccessResult {
  /** The model id as the hank (or the runtime config) names it. */
  model: string;
  /** The harness `selectHarness` picks for it; absent for an unknown model. */
  harness?: HarnessName;
  /** Its provider (`anthropic`, `openai`, …); absent for an unknown model. */
  provider?: string;
  status: ModelAccessStatus;
  /** One line for people: what was found (`OK`, or what is wrong). Control characters escaped. */
  summary: string;
  /** One line: what to do about it; absent when the status is `ok`. */
  fix?: string;
  /** The request's round trip, when one was sent (ms). */
  latencyMs?: number;
  /** What the request cost (USD), when it succeeded. */
  costUsd?: number;
  /** The key variable the agent authenticates with (`ANTHROPIC_API_KEY`), when one is known. */
  keyVariable?: string;
  /** Where the request went (a base URL, or the provider's default endpoint), when known. */
  endpoint?: string;
  /** The setting that chose that endpoint (`ANTHROPIC_BASE_URL`, `anthropicBaseUrl`, …). */
  endpointSetting?: string;
  /** The id the catalog suggests for an unknown model (`sonnet` for `sonet`). */
  suggestion?: string;
  /** The agent's error text, one line, control characters escaped. */
  error?: string;
}

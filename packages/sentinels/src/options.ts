import type { Fs } from '@hankweave/durable-io';
import type { ModelCatalog, SentinelState } from '@hankweave/types';
import type { LanguageModel } from 'ai';

/** Where the manager reports what it cannot throw (dropped triggers, corrupt history, ...). */
export interface SentinelLogger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

/** Emits one journaled `sentinel.*` event through the runtime's event bus. */
export type SentinelEmit = (type: SentinelEventType, data: Record<string, unknown>) => void;

/** The five event types this package emits. */
export type SentinelEventType =
  | 'sentinel.loaded'
  | 'sentinel.triggered'
  | 'sentinel.output'
  | 'sentinel.error'
  | 'sentinel.unloaded';

/** Everything a {@link SentinelManager} needs; one manager serves a whole run. */
export interface SentinelManagerOptions {
  /** Directory of hank.json: sentinel file refs resolve against it. */
  hankDir: string;
  /** `{execution}/.hankweave`: outputs and history go under `sentinels/` here. */
  hankweaveDir: string;
  /** The agent's working directory: output paths containing `/` resolve against it. */
  agentRoot: string;
  /** The runtime's journaled-event emitter for `sentinel.*` events. */
  emit: SentinelEmit;
  /**
   * Provider keys and base URLs (default `process.env`): the variables the agents read
   * (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`, `MISTRAL_API_KEY`, …, and
   * `<PROVIDER>_BASE_URL`), each also as `HANKWEAVE_SENTINEL_<NAME>`, which wins.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * One server for every provider but Anthropic, spoken to in each provider's own API (the
   * runtime's `piBaseUrl`: a dry run's scripted model, a local proxy). It wins over
   * `<PROVIDER>_BASE_URL`; with it no key is needed. Anthropic's stays `ANTHROPIC_BASE_URL`.
   */
  baseUrl?: string;
  /**
   * Forces the API spoken to a base URL, by Pi's names (`openai-completions`, `openai-responses`,
   * `google-generative-ai`, `mistral-conversations`, `anthropic-messages`): the runtime's `piApi`,
   * e.g. `openai-completions` for a server behind `OPENAI_BASE_URL` without the Responses API.
   */
  api?: string;
  /** Milliseconds since the epoch (default `Date.now`); timers use the global `setTimeout`. */
  clock?: () => number;
  /** Builds the model for a full model id; replaces provider lookup, key and base-URL checks. */
  modelFactory?: (modelId: string) => LanguageModel;
  /**
   * Routes model ids (provider, aliases) and prices calls, cache tokens included (default
   * `defaultModelCatalog` of `@hankweave/types`). A model it does not know costs 0, with one
   * warning per sentinel.
   */
  models?: ModelCatalog;
  /**
   * The file system every output and history write goes through (default `nodeFs` of
   * `@hankweave/durable-io`); tests pass a fault-injecting one.
   */
  fs?: Fs;
  /**
   * Keep conversational sentinels' history on disk (`sentinels/history/`, seed 001), so a codon
   * that runs again continues the conversation (default true; `enablePersistence` of the
   * sentinel settings). When false, a history lives in memory for one load of the sentinel only:
   * nothing is read from or written to the history files.
   */
  persistHistory?: boolean;
  /** Called whenever a sentinel's counters change (load, call, unload). */
  onStatesChanged?: (states: SentinelState[], totalCost: number) => void;
  /** Receives warnings; default silent. */
  logger?: SentinelLogger;
  /** Queued triggers per sentinel before the oldest is dropped (default 100). */
  maxQueuedTriggers?: number;
  /** Queued events per sentinel, across triggers, before the oldest trigger is dropped (10 000). */
  maxQueuedEvents?: number;
}

import { defaultModelCatalog, type ModelCatalog } from './model-catalog.js';

/** The agent harnesses a model can run on (reference §1.9). */
export const HARNESS_NAMES = ['claude-code', 'pi'] as const;
/** One of {@link HARNESS_NAMES}. */
export type HarnessName = (typeof HARNESS_NAMES)[number];

/** A thinking level picked by a model id's suffix (`-high`, `-xhigh`); Pi's `thinkingLevel`. */
export type ModelEffort = 'high' | 'xhigh';

/** Which harness runs a model id, and what to ask it for. */
export interface HarnessSelection {
  harness: HarnessName;
  /** The provider (`anthropic`, `openai`, `google`, `openrouter`, …; `unknown` when unsaid). */
  provider: string;
  /** The provider-side model name: no prefix, no effort suffix, an alias expanded. */
  model: string;
  /** The thinking level: the id's suffix, else `high` for OpenAI models on Pi (their default). */
  effort?: ModelEffort;
  /** True when the id names the harness itself (`pi/<provider>/<model>`, legacy `opencode/…`). */
  forced: boolean;
}

const EFFORT_SUFFIX = /-(x?high)$/i;
// `pi/<provider>/<model>` names the harness; `opencode/…` is its legacy spelling (§1.9).
const FORCED_PI = /^(?:pi|opencode)\//i;

/**
 * Picks the harness of a model id as reference §1.9 does: Anthropic models (aliases, `anthropic/…`,
 * dated ids, Bedrock `anthropic.*` profiles, Vertex ids) run on Claude Code; every other model runs
 * on Pi; `pi/<provider>/<model>` (and the legacy `opencode/<provider>/<model>`) forces Pi whatever
 * the provider. An effort suffix `-high` / `-xhigh` is split off into `effort`. It does not check
 * that the model exists: that is {@link checkModelId}'s job.
 */
export function selectHarness(
  modelId: string,
  catalog: ModelCatalog = defaultModelCatalog,
): HarnessSelection {
  const trimmed = modelId.trim();
  const suffix = EFFORT_SUFFIX.exec(trimmed)?.[1]?.toLowerCase() as ModelEffort | undefined;
  const bare = suffix === undefined ? trimmed : trimmed.slice(0, -(suffix.length + 1));
  const forced = FORCED_PI.test(bare);
  // The catalog's route reads `pi/<provider>/<model>`; `opencode/` is rewritten to it first.
  const route = catalog.route(forced ? bare.replace(/^[^/]+\//, 'pi/') : bare);
  const harness: HarnessName = !forced && route.provider === 'anthropic' ? 'claude-code' : 'pi';
  const effort = suffix ?? (harness === 'pi' && route.provider === 'openai' ? 'high' : undefined);
  return {
    harness,
    provider: route.provider,
    model: route.model,
    ...(effort !== undefined && { effort }),
    forced,
  };
}

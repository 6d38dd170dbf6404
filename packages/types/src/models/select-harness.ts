import { defaultModelCatalog, type ModelCatalog } from './model-catalog.js';
import type { HarnessName } from './model-entry.js';

export { HARNESS_NAMES, type HarnessName } from './model-entry.js';

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
 * A model id in the catalog's spelling (`opencode/…` and `PI/…` as `pi/…`), its effort suffix
 * split off. A suffix that is part of a catalog id (`openrouter/openai/o3-mini-high`) stays.
 */
export function splitModelEffort(
  modelId: string,
  catalog: ModelCatalog,
): { id: string; effort?: ModelEffort; forced: boolean } {
  const trimmed = modelId.trim();
  const forced = FORCED_PI.test(trimmed);
  const id = forced ? trimmed.replace(/^[^/]+\//, 'pi/') : trimmed;
  const suffix = EFFORT_SUFFIX.exec(id)?.[1]?.toLowerCase() as ModelEffort | undefined;
  if (suffix === undefined) return { id, forced };
  const whole = catalog.resolve(id);
  if (whole !== undefined && EFFORT_SUFFIX.test(whole.id)) return { id, forced };
  return { id: id.slice(0, -(suffix.length + 1)), effort: suffix, forced };
}

/**
 * Picks the harness of a model id as reference §1.9 does: Anthropic models (aliases, `anthropic/…`,
 * dated ids, Bedrock `anthropic.*` profiles, Vertex ids) run on Claude Code; every other model runs
 * on Pi; `pi/<provider>/<model>` (and the legacy `opencode/<provider>/<model>`) forces Pi whatever
 * the provider. The catalog row's `harness` says which for a known model, the provider for another.
 * An effort suffix `-high` / `-xhigh` is split off into `effort`. It does not check that the
 * model exists: that is {@link checkModelId}'s job.
 */
export function selectHarness(
  modelId: string,
  catalog: ModelCatalog = defaultModelCatalog,
): HarnessSelection {
  const { id, effort: suffix, forced } = splitModelEffort(modelId, catalog);
  const route = catalog.route(id);
  const served = route.entry?.harness ?? (route.provider === 'anthropic' ? 'claude-code' : 'pi');
  const harness: HarnessName = forced ? 'pi' : served;
  const effort = suffix ?? (harness === 'pi' && route.provider === 'openai' ? 'high' : undefined);
  return {
    harness,
    provider: route.provider,
    model: route.model,
    ...(effort !== undefined && { effort }),
    forced,
  };
}

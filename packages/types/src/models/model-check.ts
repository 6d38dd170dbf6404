import { suggestKey } from '../suggest-key.js';
import { defaultModelCatalog, type ModelCatalog, type ModelRoute } from './model-catalog.js';
import { type HarnessName, selectHarness } from './select-harness.js';

/**
 * The providers of {@link SERVED_HARNESSES}: Claude Code serves Anthropic (Bedrock `anthropic.*`
 * profiles included); every other provider needs the Pi harness (`@hankweave/pi`). The check
 * itself goes by harness.
 */
export const SERVED_PROVIDERS: readonly string[] = ['anthropic'];

/**
 * The harnesses {@link checkModelId} assumes installed unless told: Claude Code only, the one a
 * model check can count on (sentinels, embedders without `@hankweave/pi`). Callers that know Pi is
 * installed (the runtime, the CLI) pass `['claude-code', 'pi']`.
 */
export const SERVED_HARNESSES: readonly HarnessName[] = ['claude-code'];

/** The verdict of {@link checkModelId}. */
export type ModelCheck =
  | { ok: true; route: ModelRoute }
  | {
      ok: false;
      /** `unknown_model`: no catalog row; `unserved_provider`: no installed harness runs it. */
      code: 'unknown_model' | 'unserved_provider';
      message: string;
      /** The model id the user most likely meant (`sonnet` for `sonet`). */
      suggestion?: string;
    };

const EFFORT_SUFFIX = /-x?high$/i;

// Family names inside a Claude id: `claude-sonnet-9-9` meant some sonnet, so suggest the alias.
const CLAUDE_FAMILY = /claude-(?:\d{1,2}(?:[-.]\d{1,2})?-)?(opus|sonnet|haiku)\b/i;

/**
 * Checks a model id (a codon's, a sentinel's, `overrides.model`) against the catalog: it must
 * name a model the catalog knows, in any form the catalog resolves (aliases `sonnet`/`opus`/
 * `haiku`, `anthropic/…`, dated ids, Bedrock `anthropic.*` profiles, Vertex `@date` versions,
 * an effort suffix `-high`/`-xhigh`), and the harness {@link selectHarness} picks for it must be
 * one of `harnesses` (default {@link SERVED_HARNESSES}: Claude Code). A failure says what to
 * write instead (a "did you mean" when an id is close).
 */
export function checkModelId(
  id: string,
  catalog: ModelCatalog = defaultModelCatalog,
  harnesses: readonly HarnessName[] = SERVED_HARNESSES,
): ModelCheck {
  const trimmed = id.trim();
  if (trimmed === '' || /\s/.test(trimmed)) {
    return {
      ok: false,
      code: 'unknown_model',
      message: `${JSON.stringify(id)} is not a model id; use an alias such as "sonnet" or an id such as "claude-sonnet-4-5"`,
      suggestion: 'sonnet',
    };
  }
  // An effort suffix (`-high`, `-xhigh`; reference §1.9) picks a thinking level, not a model.
  const route = catalog.route(trimmed.replace(EFFORT_SUFFIX, ''));
  const selection = selectHarness(trimmed, catalog);
  const knownProvider = route.provider !== 'unknown' || route.entry !== undefined;
  // An unknown model of no known provider is a typo more likely than a Pi model: say "unknown".
  if ((selection.forced || knownProvider) && !harnesses.includes(selection.harness)) {
    return {
      ok: false,
      code: 'unserved_provider',
      message: unservedMessage(trimmed, selection.harness, selection.forced, route.provider),
    };
  }
  if (route.entry !== undefined) return { ok: true, route };
  const suggestion = suggestModel(trimmed.replace(EFFORT_SUFFIX, ''), catalog);
  const aliases = Object.keys(catalog.aliases).map((alias) => JSON.stringify(alias));
  return {
    ok: false,
    code: 'unknown_model',
    message: suggestion
      ? `Unknown model ${JSON.stringify(trimmed)}. Did you mean ${JSON.stringify(suggestion)}?`
      : `Unknown model ${JSON.stringify(trimmed)}; use an alias (${aliases.join(', ')}) or a model id the catalog lists, such as ${JSON.stringify(catalog.entries[0]?.id ?? 'claude-sonnet-4-5')}`,
    ...(suggestion !== undefined && { suggestion }),
  };
}

/** The alias of the family a Claude id names, else the closest alias or id by spelling. */
function suggestModel(id: string, catalog: ModelCatalog): string | undefined {
  const family = CLAUDE_FAMILY.exec(id)?.[1]?.toLowerCase();
  if (family !== undefined && Object.hasOwn(catalog.aliases, family)) return family;
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const candidates = [...Object.keys(catalog.aliases), ...catalog.entries.map((entry) => entry.id)];
  return suggestKey(bare, candidates);
}

function unservedMessage(
  id: string,
  harness: HarnessName,
  forced: boolean,
  provider: string,
): string {
  const quoted = JSON.stringify(id);
  if (harness === 'pi') {
    const what = forced
      ? `${quoted} asks for the Pi harness`
      : `${quoted} is a ${provider} model: it runs on the Pi harness`;
    return `${what}, which is not installed; install @hankweave/pi, or use an Anthropic model such as "sonnet", "opus" or "haiku"`;
  }
  return `${quoted} is an Anthropic model: it runs on Claude Code, which is not installed; install @hankweave/claude-code`;
}

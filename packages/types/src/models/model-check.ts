import { closestKeys, suggestKey } from '../suggest-key.js';
import {
  defaultModelCatalog,
  type ModelCatalog,
  type ModelRoute,
  splitModelId,
} from './model-catalog.js';
import type { ModelEntry } from './model-entry.js';
import { type HarnessName, selectHarness, splitModelEffort } from './select-harness.js';

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
  | {
      ok: true;
      route: ModelRoute;
      /**
       * Set when the id names a Pi provider the catalog knows but a model it does not list (one
       * newer than Pi's registry): usable, since Pi sends a provider any model id, but without a
       * catalog price (its cost is what Pi reports).
       * `message` says so and offers the closest listed ids (`suggestions`), for a warning.
       */
      uncatalogued?: { message: string; suggestions: string[] };
    }
  | {
      ok: false;
      /** `unknown_model`: no catalog row; `unserved_provider`: no installed harness runs it. */
      code: 'unknown_model' | 'unserved_provider';
      message: string;
      /** The model id the user most likely meant (`sonnet` for `sonet`): `suggestions[0]`. */
      suggestion?: string;
      /** Up to three ids of the catalog close to it, closest first. */
      suggestions?: string[];
    };

/** How many ids a "did you mean" offers. */
const SUGGESTIONS = 3;

// Family names inside a Claude id: `claude-sonnet-9-9` meant some sonnet, so suggest the alias.
const CLAUDE_FAMILY = /claude-(?:\d{1,2}(?:[-.]\d{1,2})?-)?(opus|sonnet|haiku)\b/i;

/**
 * Checks a model id (a codon's, a sentinel's, `overrides.model`) against the catalog: it must
 * name a model the catalog knows, in any form the catalog resolves (aliases `sonnet`/`opus`/
 * `haiku`, `anthropic/…`, dated ids, Bedrock `anthropic.*` profiles, Vertex `@date` versions,
 * `<provider>/<model>` and `pi/<provider>/<model>` for every provider of Pi's registry, an
 * effort suffix `-high`/`-xhigh`), and the harness {@link selectHarness} picks for it must be
 * one of `harnesses` (default {@link SERVED_HARNESSES}: Claude Code). A failure says what to
 * write instead: up to three close ids of the whole catalog, written the way the id was.
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
      suggestions: ['sonnet'],
    };
  }
  // An effort suffix (`-high`, `-xhigh`; reference §1.9) picks a thinking level, not a model.
  const { id: bare } = splitModelEffort(trimmed, catalog);
  const route = catalog.route(bare);
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
  const suggestions = suggestModels(bare, catalog);
  const named = splitModelId(bare).provider;
  // A model a provider serves after Pi's registry was made (`openai/gpt-5.6`): Pi asks the
  // provider for it as written ("custom model id"), so it runs; only its price is unknown.
  if (named !== undefined && selection.harness === 'pi' && rowsOf(catalog, named).length > 0) {
    const closest = suggestions.map((suggestion) => JSON.stringify(suggestion));
    return {
      ok: true,
      route,
      uncatalogued: {
        message: `${JSON.stringify(trimmed)} is not in the model catalog (Pi's registry): Pi asks ${route.provider} for ${JSON.stringify(route.model)} as written; the catalog has no price for it, so its cost is whatever Pi reports${closest.length > 0 ? `. If you meant a listed model: ${closest.join(', ')}` : ''}`,
        suggestions,
      },
    };
  }
  const quoted = suggestions.map((suggestion) => JSON.stringify(suggestion));
  const [first, ...others] = quoted;
  return {
    ok: false,
    code: 'unknown_model',
    message:
      first !== undefined
        ? `Unknown model ${JSON.stringify(trimmed)}. Did you mean ${first}?${others.length > 0 ? ` Other close ids: ${others.join(', ')}.` : ''}`
        : `Unknown model ${JSON.stringify(trimmed)}${unknownHint(bare, catalog)}`,
    ...(suggestions[0] !== undefined && { suggestion: suggestions[0], suggestions }),
  };
}

/** The rest of the message when nothing is close: what the catalog does list. */
function unknownHint(id: string, catalog: ModelCatalog): string {
  const { forced, provider } = splitModelId(id);
  const prefix = forced ? 'pi/' : '';
  const rows = provider === undefined ? [] : rowsOf(catalog, provider);
  if (provider !== undefined && rows.length > 0) {
    const examples = rows
      .slice(0, 3)
      .map((row) => JSON.stringify(`${prefix}${row.provider}/${row.id}`));
    return `: the catalog lists no such ${rows[0]?.provider} model; ${rows[0]?.provider} models include ${examples.join(', ')}`;
  }
  if (provider !== undefined && (forced || id.split('/').length > 2)) {
    return `: the catalog knows no provider ${JSON.stringify(provider)}; its providers are ${catalog.providers.map((name) => JSON.stringify(name)).join(', ')}`;
  }
  const aliases = Object.keys(catalog.aliases).map((alias) => JSON.stringify(alias));
  return `; use an alias (${aliases.join(', ')}) or a model id the catalog lists, such as ${JSON.stringify(catalog.entries[0]?.id ?? 'claude-sonnet-4-5')}, or pi/<provider>/<model> for any provider's`;
}

const rowsOf = (catalog: ModelCatalog, provider: string): ModelEntry[] =>
  catalog.entries.filter((entry) => entry.provider.toLowerCase() === provider.toLowerCase());

/**
 * The ids of the catalog closest to an unknown one, written the way it was (`pi/` and a
 * provider kept): the alias of the family a Claude id names; for a named provider, the same id
 * at other providers, then that provider's closest ids (a misspelt provider is corrected first);
 * for a bare id, the closest aliases and ids of the whole catalog.
 */
function suggestModels(id: string, catalog: ModelCatalog): string[] {
  const { forced, provider, model } = splitModelId(id);
  // A gateway's Claude ids are its own (`pi/openrouter/anthropic/claude-sonnet-4.5`): no alias.
  const family =
    provider === undefined || provider.toLowerCase() === 'anthropic'
      ? CLAUDE_FAMILY.exec(id)?.[1]?.toLowerCase()
      : undefined;
  if (family !== undefined && Object.hasOwn(catalog.aliases, family)) return [family];
  if (provider === undefined) {
    const names = new Map<string, string>();
    for (const alias of Object.keys(catalog.aliases)) names.set(alias, alias);
    for (const entry of catalog.entries) {
      // The display form resolves to this row: bare when the bare id does, else with its provider.
      const shown =
        catalog.resolve(entry.id) === entry ? entry.id : `${entry.provider}/${entry.id}`;
      if (!names.has(entry.id.toLowerCase())) names.set(entry.id.toLowerCase(), shown);
    }
    const keys = [...names.keys()];
    return closestKeys(model.toLowerCase(), keys, SUGGESTIONS).map((key) => names.get(key) ?? key);
  }
  const prefix = forced ? 'pi/' : '';
  let rows = rowsOf(catalog, provider);
  let named = provider;
  if (rows.length === 0) {
    const corrected = suggestKey(provider.toLowerCase(), catalog.providers);
    if (corrected !== undefined) {
      named = corrected;
      rows = rowsOf(catalog, corrected);
    }
  }
  const out: string[] = [];
  const add = (shown: string) => {
    if (!out.includes(shown) && out.length < SUGGESTIONS) out.push(shown);
  };
  // The same model elsewhere: `pi/openai/gemini-2.5-flash` → `pi/google/gemini-2.5-flash`, and
  // `zai/glm-4.6` → `vercel-ai-gateway/zai/glm-4.6` (an id holding the provider's name).
  const key = model.toLowerCase();
  const whole = `${provider}/${model}`.toLowerCase();
  const exact = rows.find((entry) => entry.id.toLowerCase() === key);
  if (exact) add(`${prefix}${exact.provider}/${exact.id}`);
  for (const entry of catalog.entries) {
    const entryId = entry.id.toLowerCase();
    if (entryId === key || entryId === whole) add(`${prefix}${entry.provider}/${entry.id}`);
  }
  const ids = rows.map((entry) => entry.id);
  if (named.toLowerCase() === 'anthropic') ids.unshift(...Object.keys(catalog.aliases));
  const canonical = rows[0]?.provider ?? named;
  for (const close of closestKeys(model, ids, SUGGESTIONS)) add(`${prefix}${canonical}/${close}`);
  return out;
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

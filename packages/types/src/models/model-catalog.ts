import type { TokenUsage } from '../common.js';
import { claudeVersionOf, compareVersions } from './claude-version.js';
import { MODEL_CATALOG } from './model-catalog-data.js';
import type { ModelEntry, ModelPrice } from './model-entry.js';

/** Where a model id points: its provider, the name to ask that provider for, the catalog row. */
export interface ModelRoute {
  provider: string;
  /** The id without its provider prefix, an alias expanded to its canonical id. */
  model: string;
  /** The catalog's row, when it knows the model. */
  entry: ModelEntry | undefined;
}

/** Model ids, aliases, providers, context windows and prices: one table, one lookup. */
export interface ModelCatalog {
  readonly entries: readonly ModelEntry[];
  /** `sonnet` → the newest sonnet of the table, and so on for every family. */
  readonly aliases: Readonly<Record<string, string>>;
  /**
   * The row of a model id, in any form the agents and providers use: an alias (`sonnet`), a
   * provider prefix (`anthropic/claude-haiku-4-5`, `pi/openrouter/moonshotai/kimi-k2`), a date
   * (`claude-sonnet-4-20250514`), a Bedrock profile (`us.anthropic.claude-haiku-4-5-20251001-v1:0`),
   * a Vertex version (`claude-sonnet-4-5@20250929`) or the old order (`claude-3-5-haiku-20241022`).
   *
   * A named provider is looked up among its own rows (`google/gemini-2.5-flash`); a first segment
   * that is no provider is part of the id (`qwen/qwen3-32b`, as Pi reads it). A bare id is a
   * Claude id or alias first (Anthropic's rows, so Bedrock `anthropic.*` profiles stay Anthropic's),
   * else the first row with that id in the table's order (`gpt-5.2` → `openai`'s, not a
   * reseller's). Case does not matter.
   */
  resolve(modelId: string): ModelEntry | undefined;
  /** The provider and provider-side name of any model id, known to the table or not. */
  route(modelId: string): ModelRoute;
  /**
   * The USD cost of `usage` on `modelId`, cache reads and writes included. An unknown model, or a
   * row without a price, costs 0 and says so (`known: false`): tokens still count, and the caller
   * warns once.
   */
  priceUsage(modelId: string, usage: TokenUsage): { cost: number; known: boolean };
  /** The providers of the rows, in the table's order (`anthropic`, `openai`, …). */
  readonly providers: readonly string[];
}

/** A model id taken apart: the `pi/` prefix, the provider it names, the rest. */
export interface ModelIdParts {
  /** True for `pi/<provider>/<model>`. */
  forced: boolean;
  /** The first segment of `<provider>/<model>` (after `pi/`), as written. */
  provider: string | undefined;
  /** The rest: the model id, which may hold slashes itself (`openrouter/moonshotai/kimi-k2`). */
  model: string;
}

/** The provider an id names or implies, and the id without the prefix. */
export function splitModelId(modelId: string): ModelIdParts {
  const id = modelId.trim();
  const slash = id.indexOf('/');
  if (slash <= 0) return { forced: false, provider: undefined, model: id };
  const first = id.slice(0, slash);
  const rest = id.slice(slash + 1);
  // `pi/<provider>/<model>` forces the Pi agent; the provider is the next segment.
  if (first === 'pi') return { ...splitModelId(rest), forced: true };
  return { forced: false, provider: first, model: rest };
}

function inferProvider(model: string): string {
  const id = model.toLowerCase();
  if (id.includes('claude') || id.startsWith('anthropic.')) return 'anthropic';
  if (/^(gpt-|o\d|codex)/.test(id)) return 'openai';
  if (id.startsWith('gemini')) return 'google';
  return 'unknown';
}

/** What a lookup found: the row, and the provider and provider-side name to route to. */
interface Found {
  entry: ModelEntry;
  provider: string;
  /** The name to ask the provider for; undefined keeps the id as written (a dated Claude id). */
  model?: string;
}

/** Builds a catalog over `entries` (default the built-in table). */
export function createModelCatalog(entries: readonly ModelEntry[] = MODEL_CATALOG): ModelCatalog {
  const newest = new Map<string, ModelEntry>();
  for (const entry of entries) {
    if (entry.family === undefined || entry.version === undefined) continue;
    const current = newest.get(entry.family);
    if (!current || compareVersions(entry.version, current.version ?? '0') > 0) {
      newest.set(entry.family, entry);
    }
  }
  const aliases = Object.freeze(
    Object.fromEntries([...newest].map(([family, entry]) => [family, entry.id])),
  );
  // The first row of an id wins: the table's order settles an id several providers list.
  const byId = new Map<string, ModelEntry>();
  const byProvider = new Map<string, Map<string, ModelEntry>>();
  for (const entry of entries) {
    const id = entry.id.toLowerCase();
    if (!byId.has(id)) byId.set(id, entry);
    const provider = entry.provider.toLowerCase();
    const rows = byProvider.get(provider) ?? new Map<string, ModelEntry>();
    if (!rows.has(id)) rows.set(id, entry);
    byProvider.set(provider, rows);
  }

  const found = (entry: ModelEntry | undefined, model?: string): Found | undefined =>
    entry && { entry, provider: entry.provider, ...(model !== undefined && { model }) };

  // An alias, or a Claude id read by family and version (dated, Bedrock, Vertex, old order).
  const claudeRow = (model: string, provider?: string): Found | undefined => {
    const alias = newest.get(model.toLowerCase());
    if (alias && (provider === undefined || alias.provider === provider)) {
      return found(alias, alias.id);
    }
    const claude = claudeVersionOf(model);
    if (!claude) return undefined;
    const row = entries.find(
      (entry) =>
        entry.family === claude.family &&
        entry.version === claude.version &&
        (provider === undefined || entry.provider === provider),
    );
    return found(row);
  };

  const lookup = (modelId: string): Found | undefined => {
    const { forced, provider, model } = splitModelId(modelId);
    const key = model.toLowerCase();
    if (provider === undefined) {
      // Claude ids first, so `anthropic.claude-…` Bedrock profiles stay Anthropic's models.
      return claudeRow(model) ?? found(byId.get(key), byId.get(key)?.id);
    }
    const named = provider.toLowerCase();
    const rows = byProvider.get(named);
    const exact = rows?.get(key);
    if (named === 'anthropic') return claudeRow(model, 'anthropic') ?? found(exact, exact?.id);
    if (exact) return found(exact, exact.id);
    // No such provider: `qwen/qwen3-32b` is an id with a slash (as Pi reads it), unless the id
    // named the harness (`pi/qwen/…` asks Pi for a provider `qwen`).
    if (rows === undefined && !forced) {
      const whole = byId.get(`${named}/${key}`);
      return found(whole, whole?.id);
    }
    return undefined;
  };

  const resolve = (modelId: string): ModelEntry | undefined => lookup(modelId)?.entry;

  return {
    entries,
    aliases,
    resolve,
    route(modelId) {
      const { provider, model } = splitModelId(modelId);
      const hit = lookup(modelId);
      return {
        provider: hit?.provider ?? provider ?? inferProvider(model),
        model: hit?.model ?? model,
        entry: hit?.entry,
      };
    },
    priceUsage(modelId, usage) {
      const price = resolve(modelId)?.price;
      return price ? { cost: costOfUsage(usage, price), known: true } : { cost: 0, known: false };
    },
    providers: [...new Set(entries.map((entry) => entry.provider))],
  };
}

/** The catalog of the built-in table. */
export const defaultModelCatalog: ModelCatalog = createModelCatalog();

/** USD for `usage` at `price` (per million tokens), cache reads and writes included. */
export function costOfUsage(usage: TokenUsage, price: ModelPrice): number {
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheCreationTokens * price.cacheWrite +
      usage.cacheReadTokens * price.cacheRead) /
    1_000_000
  );
}

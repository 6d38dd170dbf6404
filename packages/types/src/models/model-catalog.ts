import type { TokenUsage } from '../common.js';
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
   * provider prefix (`anthropic/claude-haiku-4-5`), a date (`claude-sonnet-4-20250514`), a
   * Bedrock profile (`us.anthropic.claude-haiku-4-5-20251001-v1:0`), a Vertex version
   * (`claude-sonnet-4-5@20250929`) or the old order (`claude-3-5-haiku-20241022`).
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
}

// `claude-opus-4-5`, `claude-sonnet-4-20250514`, `us.anthropic.claude-haiku-4-5-20251001-v1:0`,
// `claude-sonnet-4-5@20250929`: family then version. A minor has 1–2 digits; 8 digits are a date.
const NEW_STYLE = /claude-(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?(?!\d)/;
// `claude-3-5-haiku-20241022`, `claude-3-opus-20240229`: version then family.
const OLD_STYLE = /claude-(\d{1,2})(?:[-.](\d{1,2}))?-(opus|sonnet|haiku)/;

/** Family and `major.minor` of a Claude model id, or undefined for anything else. */
function claudeVersionOf(modelId: string): { family: string; version: string } | undefined {
  const id = modelId.toLowerCase();
  const fresh = NEW_STYLE.exec(id);
  if (fresh) return { family: fresh[1] as string, version: `${fresh[2]}.${fresh[3] ?? '0'}` };
  const old = OLD_STYLE.exec(id);
  if (old) return { family: old[3] as string, version: `${old[1]}.${old[2] ?? '0'}` };
  return undefined;
}

const compareVersions = (a: string, b: string): number => {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
};

/** The provider an id names or implies, and the id without the prefix. */
function splitProvider(modelId: string): { provider: string | undefined; model: string } {
  const slash = modelId.indexOf('/');
  if (slash > 0) {
    const provider = modelId.slice(0, slash);
    const rest = modelId.slice(slash + 1);
    // `pi/<provider>/<model>` forces the Pi agent; the provider is the next segment.
    if (provider === 'pi') return splitProvider(rest);
    return { provider, model: rest };
  }
  return { provider: undefined, model: modelId };
}

function inferProvider(model: string): string {
  const id = model.toLowerCase();
  if (id.includes('claude') || id.startsWith('anthropic.')) return 'anthropic';
  if (/^(gpt-|o\d|codex)/.test(id)) return 'openai';
  if (id.startsWith('gemini')) return 'google';
  return 'unknown';
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
  const byId = new Map(entries.map((entry) => [entry.id.toLowerCase(), entry]));

  const resolve = (modelId: string): ModelEntry | undefined => {
    const { model } = splitProvider(modelId.trim());
    const alias = newest.get(model.toLowerCase());
    if (alias) return alias;
    const exact = byId.get(model.toLowerCase());
    if (exact) return exact;
    const claude = claudeVersionOf(model);
    if (!claude) return undefined;
    return entries.find(
      (entry) => entry.family === claude.family && entry.version === claude.version,
    );
  };

  return {
    entries,
    aliases,
    resolve,
    route(modelId) {
      const { provider, model } = splitProvider(modelId.trim());
      const entry = resolve(modelId);
      const isAlias = newest.has(model.toLowerCase());
      return {
        provider: provider ?? entry?.provider ?? inferProvider(model),
        model: isAlias && entry ? entry.id : model,
        entry,
      };
    },
    priceUsage(modelId, usage) {
      const price = resolve(modelId)?.price;
      return price ? { cost: costOfUsage(usage, price), known: true } : { cost: 0, known: false };
    },
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

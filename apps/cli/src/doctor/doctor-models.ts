import { isAbsolute, join } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';

/**
 * A model the doctor checks, with the `env` of the codons that use it (a codon's own key or base
 * URL changes what is checked), and who uses it (`codon explore`, `sentinel cost-watch`, …).
 */
export interface DoctorModel {
  model: string;
  env?: Record<string, string>;
  usedBy: string[];
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const modelOf = (value: unknown): string | undefined =>
  isObject(value) && typeof value.model === 'string' && value.model.trim() !== ''
    ? value.model
    : undefined;

/**
 * Every model a parsed hank.json uses, in the order a run meets them: each codon's and loop
 * codon's `model` (all replaced by `override`, the runtime config's `model`: `-m`, hankweave.json,
 * `HANKWEAVE_RUNTIME_MODEL` or the hank's `overrides.model`), and each sentinel's, inline or in
 * its file (read as JSON relative to the hank; a file that cannot be read is left to `validate`).
 * The hank is read loosely, so a hank that does not validate (a misspelt model) is still checked.
 */
export function hankModels(config: unknown, hankDir: string, override?: string): DoctorModel[] {
  const found = new Map<string, DoctorModel>();
  const add = (model: string, user: string, env?: Record<string, string>) => {
    const key = JSON.stringify([
      model,
      Object.entries(env ?? {}).sort(([a], [b]) => a.localeCompare(b)),
    ]);
    const entry = found.get(key) ?? { model, ...(env !== undefined && { env }), usedBy: [] };
    entry.usedBy.push(user);
    found.set(key, entry);
  };
  const items = isObject(config) && Array.isArray(config.hank) ? config.hank : [];
  const codons = items.flatMap((item: unknown) =>
    isObject(item) && item.type === 'loop' && Array.isArray(item.codons) ? item.codons : [item],
  );
  for (const codon of codons) {
    if (!isObject(codon)) continue;
    const id = typeof codon.id === 'string' ? codon.id : '?';
    const model = override ?? modelOf(codon);
    if (model !== undefined) add(model, `codon ${id}`, envOf(codon.env));
    for (const entry of Array.isArray(codon.sentinels) ? codon.sentinels : []) {
      const sentinel = isObject(entry) ? sentinelConfig(entry.sentinelConfig, hankDir) : undefined;
      const sentinelModel = modelOf(sentinel);
      if (sentinelModel === undefined) continue;
      const name = isObject(sentinel) && typeof sentinel.id === 'string' ? sentinel.id : '?';
      add(sentinelModel, `sentinel ${name} (codon ${id})`);
    }
  }
  if (override !== undefined && ![...found.values()].some((entry) => entry.model === override))
    add(override, 'the runtime config');
  return [...found.values()];
}

/** A codon's `env` when it is a non-empty object of strings, else undefined. */
function envOf(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A sentinel's config: inline, or its JSON file relative to the hank; undefined if unreadable. */
function sentinelConfig(ref: unknown, hankDir: string): unknown {
  if (typeof ref !== 'string') return ref;
  try {
    const path = isAbsolute(ref) ? ref : join(hankDir, ref);
    return JSON.parse(readRegularFileSync(path).toString('utf8'));
  } catch {
    return undefined;
  }
}

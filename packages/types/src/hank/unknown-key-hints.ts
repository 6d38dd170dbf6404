import type { z } from 'zod';

/** Names people type for a field, and the field they meant (reference §1.11 `FIELD_TYPO_MAP`). */
export const FIELD_TYPO_MAP: Readonly<Record<string, string>> = {
  systemPromptFile: 'appendSystemPromptFile',
  systemPromptText: 'appendSystemPromptText',
  systemPrompt: 'appendSystemPromptText',
  prompt: 'promptText',
  prompts: 'promptFile',
  promptFiles: 'promptFile',
  tracking: 'checkpointedFiles',
  tracked: 'checkpointedFiles',
  watchedFiles: 'checkpointedFiles',
  fileTracking: 'checkpointedFiles',
  rig: 'rigSetup',
  setup: 'rigSetup',
  preSetup: 'rigSetup',
  archiveRigs: 'archiveOnSuccess',
  rigTeardown: 'archiveOnSuccess',
  teardown: 'archiveOnSuccess',
  archive: 'archiveOnSuccess',
  cleanup: 'archiveOnSuccess',
  archiveRig: 'archiveOnSuccess',
  archiving: 'archiveOnSuccess',
  archives: 'archiveOnSuccess',
  environment: 'env',
  envVars: 'env',
  outputs: 'outputFiles',
  output: 'outputFiles',
  continuation: 'continuationMode',
  mode: 'continuationMode',
  costLimit: 'budget.maxDollars',
  maxBudget: 'budget.maxDollars',
  maxCost: 'budget.maxDollars',
  maxDollars: 'budget.maxDollars',
  maxDuration: 'budget.maxTimeSeconds',
  maxDurationSeconds: 'budget.maxTimeSeconds',
  maxTimeSeconds: 'budget.maxTimeSeconds',
  timeLimit: 'budget.maxTimeSeconds',
  maxTokens: 'budget.maxOutputTokens',
  maxOutputTokens: 'budget.maxOutputTokens',
  tokenLimit: 'budget.maxOutputTokens',
};

/** Longer unknown keys get no "did you mean": the longest field name has 22 characters. */
const MAX_HINTED_KEY_LENGTH = 64;

/** Edit distance, for "did you mean" on plain misspellings. */
function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number;
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

/**
 * The field the user most likely meant: the typo map first (only when its suggestion exists
 * here), then the closest known key within a small edit distance.
 */
export function suggestKey(unknownKey: string, knownKeys: readonly string[]): string | undefined {
  // Own entries only: `valueOf`, `constructor`, `__proto__` ... are not in the map, whatever
  // Object.prototype says.
  const mapped = Object.hasOwn(FIELD_TYPO_MAP, unknownKey) ? FIELD_TYPO_MAP[unknownKey] : undefined;
  if (mapped && knownKeys.includes(mapped.split('.')[0] as string)) return mapped;
  // No field name is near this long; the edit distance would cost |key| x |field| per field.
  if (unknownKey.length > MAX_HINTED_KEY_LENGTH) return undefined;
  const tolerance = Math.max(2, Math.floor(unknownKey.length / 4));
  let best: { key: string; score: number } | undefined;
  for (const key of knownKeys) {
    // The length difference is a lower bound of the distance: skip what cannot be close.
    if (Math.abs(key.length - unknownKey.length) > tolerance) continue;
    const score = distance(unknownKey, key);
    if (!best || score < best.score) best = { key, score };
  }
  return best && best.score <= tolerance ? best.key : undefined;
}

type AnyDef = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): AnyDef =>
  (schema as unknown as { _zod: { def: AnyDef } })._zod.def;

/**
 * Walks a schema along `path` (guided by the actual value, so unions pick the matching option)
 * and returns the keys the object found there accepts.
 */
export function knownKeysAt(
  schema: z.ZodType,
  value: unknown,
  path: readonly PropertyKey[],
): string[] {
  const found = schemaAt(schema, value, path, false);
  return found && defOf(found).type === 'object'
    ? Object.keys(defOf(found).shape as Record<string, z.ZodType>)
    : [];
}

/**
 * The options of the union found at `path` (its wrappers removed), or undefined when there is
 * none: for an `invalid_union` issue, to report the errors of the option the value was meant for.
 */
export function unionOptionsAt(
  schema: z.ZodType,
  value: unknown,
  path: readonly PropertyKey[],
): z.ZodType[] | undefined {
  const found = schemaAt(schema, value, path, true);
  return found && defOf(found).type === 'union' ? (defOf(found).options as z.ZodType[]) : undefined;
}

/**
 * The option of a union a plain object was most likely meant for: the one whose fields it uses
 * most (a matching `type` literal counts double); the first option on a tie, since unions list
 * the canonical shape first.
 */
export function likeliestOption(options: readonly z.ZodType[], value: unknown): number {
  let best = 0;
  let bestScore = -1;
  for (const [index, option] of options.entries()) {
    const object = objectOf(option);
    if (!object) continue;
    const shape = defOf(object).shape as Record<string, z.ZodType>;
    let score = 0;
    for (const key of typeof value === 'object' && value !== null ? Object.keys(value) : []) {
      if (Object.hasOwn(shape, key))
        score += literalMatches(shape[key], ownValue(value, key)) ? 2 : 1;
    }
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/** The schema at `path`, wrappers removed; a union at the end is kept when `stopAtUnion`. */
function schemaAt(
  schema: z.ZodType,
  value: unknown,
  path: readonly PropertyKey[],
  stopAtUnion: boolean,
): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  let currentValue = value;
  let index = 0;
  while (current) {
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'default':
      case 'prefault':
      case 'nullable':
      case 'readonly':
        current = def.innerType as z.ZodType;
        continue;
      case 'lazy':
        current = (def.getter as () => z.ZodType)();
        continue;
      case 'pipe':
        current = def.in as z.ZodType;
        continue;
      case 'union':
        if (stopAtUnion && index >= path.length) return current;
        current = pickUnionOption(def, currentValue);
        continue;
      case 'array': {
        if (index >= path.length) return current;
        currentValue = ownValue(currentValue, String(path[index]));
        index++;
        current = def.element as z.ZodType;
        continue;
      }
      case 'object': {
        if (index >= path.length) return current;
        const shape = def.shape as Record<string, z.ZodType>;
        const key = String(path[index]);
        currentValue = ownValue(currentValue, key);
        index++;
        // Own fields only: `shape.constructor` is Object, not a schema.
        current = Object.hasOwn(shape, key) ? shape[key] : undefined;
        continue;
      }
      default:
        return index >= path.length ? current : undefined;
    }
  }
  return undefined;
}

/** The object schema under wrappers and pipes (`object.transform(...)` is a pipe), if any. */
function objectOf(schema: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 20; depth++) {
    const def = defOf(current);
    if (def.type === 'object') return current;
    if (def.type === 'pipe') current = def.in as z.ZodType;
    else if (['optional', 'default', 'prefault', 'nullable', 'readonly'].includes(def.type))
      current = def.innerType as z.ZodType;
    else return undefined;
  }
  return undefined;
}

/** True when `field` is a literal (possibly optional) that `value` equals. */
function literalMatches(field: z.ZodType | undefined, value: unknown): boolean {
  if (!field) return false;
  const fieldDef = defOf(field);
  const literal = fieldDef.type === 'optional' ? defOf(fieldDef.innerType as z.ZodType) : fieldDef;
  return literal.type === 'literal' && (literal.values as unknown[]).includes(value);
}

/** `value[key]` when `value` is an object or array that has `key` as its own property. */
function ownValue(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function pickUnionOption(def: AnyDef, value: unknown): z.ZodType | undefined {
  const options = def.options as z.ZodType[];
  const discriminator = def.discriminator as string | undefined;
  const objects = options.filter((option) => objectOf(option) !== undefined);
  const byLiteral = (key: string) =>
    objects.find((option) => {
      const shape = defOf(objectOf(option) as z.ZodType).shape as Record<string, z.ZodType>;
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      return literalMatches(field, ownValue(value, key));
    });
  // Without a matching discriminator (a codon may omit `type`), the last object option is the
  // default one.
  return (
    (discriminator ? byLiteral(discriminator) : byLiteral('type')) ??
    objects[objects.length - 1] ??
    options[0]
  );
}

import type { z } from 'zod';

// Walks a zod schema along the path of a validation issue, so that an unknown key or a union
// mismatch is reported against the option the value was meant for (suggestKey gives the
// spelling hint).

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

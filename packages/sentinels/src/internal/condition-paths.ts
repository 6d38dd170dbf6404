import { eventDataSchemas } from '@hankweave/types';

// Zod 4 schemas expose their definition at `_zod.def`. Reading it structurally keeps zod out of
// this package's dependencies (the schemas come from @hankweave/types).
interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  options?: unknown[];
  valueType?: unknown;
  in?: unknown;
  left?: unknown;
  right?: unknown;
  getter?: () => unknown;
}

function defOf(schema: unknown): SchemaDef | undefined {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/** True when the dot path names a field the schema can hold. */
function pathFits(schema: unknown, segments: readonly string[], depth = 0): boolean {
  const def = defOf(schema);
  if (def === undefined || depth > 32) return true;
  if (WRAPPERS.has(def.type)) return pathFits(def.innerType, segments, depth + 1);
  if (def.type === 'pipe') return pathFits(def.in, segments, depth + 1);
  if (def.type === 'lazy' && def.getter) return pathFits(def.getter(), segments, depth + 1);
  if (def.type === 'any' || def.type === 'unknown') return true;
  if (def.type === 'union') {
    return (def.options ?? []).some((option) => pathFits(option, segments, depth + 1));
  }
  if (def.type === 'intersection') {
    return pathFits(def.left, segments, depth + 1) || pathFits(def.right, segments, depth + 1);
  }
  const [head, ...rest] = segments;
  if (head === undefined) return true;
  switch (def.type) {
    case 'object':
      return head in (def.shape ?? {}) && pathFits(def.shape?.[head], rest, depth + 1);
    case 'record':
      return pathFits(def.valueType, rest, depth + 1);
    case 'array':
      if (head === 'length') return rest.length === 0;
      return /^\d+$/.test(head) && pathFits(def.element, rest, depth + 1);
    case 'string':
      return head === 'length' && rest.length === 0;
    default:
      return false;
  }
}

/** True when `type` names a known event type. */
export function isKnownEventType(type: string): boolean {
  return Object.hasOwn(eventDataSchemas, type);
}

/**
 * True when `path` is a valid dot path into the data of at least one of `types`. `*` among the
 * types skips the check, as there is nothing to check against.
 */
export function isPathValidFor(path: string, types: readonly string[]): boolean {
  if (types.includes('*')) return true;
  const segments = path.split('.');
  return types.some((type) =>
    pathFits(eventDataSchemas[type as keyof typeof eventDataSchemas], segments),
  );
}

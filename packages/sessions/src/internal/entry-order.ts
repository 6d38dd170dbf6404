// Writers put known fields in the seed's order, then everything else as it came, so a file we
// rewrite reads like one the seed's tools wrote and a diff of it stays small.

const REGISTRY_ENTRY_ORDER = [
  'type',
  'loop_type',
  'pipeline_file',
  'started_at',
  'project_path',
  'max_iterations',
  'status',
  'killed_at',
  'completed_at',
  'note',
] as const;

// The seed's example writes these as null when unset, rather than leaving them out.
const REGISTRY_NULL_WHEN_UNSET = ['killed_at', 'completed_at', 'note'] as const;

/** `entry` with the seed's field order and nulls, undefined fields dropped. */
export function orderRegistryEntry<T extends Record<string, unknown>>(entry: T): T {
  const filled: Record<string, unknown> = { ...entry };
  for (const key of REGISTRY_NULL_WHEN_UNSET) filled[key] ??= null;
  return orderFields(filled, REGISTRY_ENTRY_ORDER) as T;
}

/** `value`'s fields: `order` first (those present), then the rest in their order; undefined dropped. */
export function orderFields(
  value: Record<string, unknown>,
  order: readonly string[],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of order) if (value[key] !== undefined) result[key] = value[key];
  for (const [key, field] of Object.entries(value)) {
    // `__proto__` would set the prototype instead of a field: no session file needs it.
    if (field === undefined || key === '__proto__' || Object.hasOwn(result, key)) continue;
    result[key] = field;
  }
  return result;
}

/** `fields` without its undefined values: in a patch, undefined means "not given". */
export function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

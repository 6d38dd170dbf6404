/** A zod issue, structurally (zod is not a dependency of this package). */
interface Issue {
  path: PropertyKey[];
  code?: string;
  /** For `invalid_union`: each branch's issues, with paths relative to the union. */
  errors?: ReadonlyArray<ReadonlyArray<Issue>>;
}

/** The part of a zod schema used here. */
export interface SafeParser<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<Issue> } };
}

/**
 * Where to cut for one issue. A union (`content: string | block[]`) whose value has the shape of
 * exactly one branch is repaired inside that branch (drop the bad block, keep the others);
 * otherwise the whole value goes.
 */
function repairPaths(issue: Issue, prefix: PropertyKey[] = []): PropertyKey[][] {
  const here = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || !issue.errors) return [here];
  const fitting = issue.errors.filter((branch) => branch.every((inner) => inner.path.length > 0));
  if (fitting.length !== 1) return [here];
  return (fitting[0] as ReadonlyArray<Issue>).flatMap((inner) => repairPaths(inner, here));
}

const MAX_REPAIRS = 4;

function removeAt(root: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  if (typeof parent !== 'object' || parent === null) return false;
  const last = path[path.length - 1] as PropertyKey;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else delete (parent as Record<PropertyKey, unknown>)[last];
  return true;
}

function deepestLast(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  if (a.length !== b.length) return b.length - a.length;
  const [x, y] = [a.at(-1), b.at(-1)];
  return typeof x === 'number' && typeof y === 'number' ? y - x : 0;
}

/**
 * Parses `value` with a loose schema, dropping what does not fit instead of failing: a newer agent
 * may change the type of a field we know (reading is tolerant, compatibility.md). Each failed
 * attempt removes the offending values and tries again. Works on a clone; undefined when even the
 * repaired value does not parse (for example a line that is not an object).
 */
export function tolerantParse<T>(
  schema: SafeParser<T>,
  value: unknown,
): { data: T; dropped: string[] } | undefined {
  let candidate: unknown = structuredClone(value);
  const dropped: string[] = [];
  for (let attempt = 0; attempt <= MAX_REPAIRS; attempt++) {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return { data: parsed.data, dropped };
    let repaired = false;
    // Deepest paths first, so that removing an array item does not shift a later path.
    const paths = parsed.error.issues.flatMap((issue) => repairPaths(issue)).sort(deepestLast);
    for (const path of paths) {
      if (removeAt(candidate, path)) {
        repaired = true;
        dropped.push(path.join('.'));
      }
    }
    if (!repaired) return undefined;
    candidate = structuredClone(candidate);
  }
  return undefined;
}

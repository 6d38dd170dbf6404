/** A value found in a document, or why there is none. */
export type Lookup = { value: unknown } | { absent: string };

/**
 * The value at an RFC 6901 JSON pointer (`""` is the whole document, `/a/0/b` walks keys and
 * array indexes, `~1` is `/` and `~0` is `~`). Small enough to keep here rather than add a
 * dependency; the grammar is checked by the schema before this runs.
 */
export function lookUpPointer(document: unknown, pointer: string): Lookup {
  if (pointer === '') return { value: document };
  let current: unknown = document;
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  let walked = '';
  for (const token of tokens) {
    walked += `/${token}`;
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) {
        return { absent: `${walked} is not in the array` };
      }
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, token)) return { absent: `${walked} is missing` };
      current = (current as Record<string, unknown>)[token];
    } else {
      return { absent: `${walked} is missing` };
    }
  }
  return { value: current };
}

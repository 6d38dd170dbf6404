/** Byte order of the UTF-8 encodings (not UTF-16 code units, which differ above the BMP). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Canonical JSON: object keys sorted by their UTF-8 bytes, no whitespace, `undefined` properties
 * left out. The preimage of every hash in a lock and the text of hank.lock itself, so the same
 * value always gives the same bytes. Non-finite numbers and holes are refused, never guessed.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalize ${value}`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`cannot canonicalize a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let index = 0; index < value.length; index++) {
      if (value[index] === undefined) throw new TypeError('cannot canonicalize an undefined item');
      parts.push(canonicalJson(value[index]));
    }
    return `[${parts.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareUtf8);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

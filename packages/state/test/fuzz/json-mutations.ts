import fc from 'fast-check';

// Not exported from the package: generators of damaged JSON files for the fuzz tests.

/** Keys that name members of `Object.prototype` (or that code often looks up by habit). */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'toJSON',
  'then',
] as const;

type Path = (string | number)[];

/** A value to put somewhere in a document. */
export type Insert =
  | { kind: 'json'; value: unknown }
  | { kind: 'proto-object'; key: string; value: unknown }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' };

/** One way to damage a JSON document. */
export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; flips: { at: number; byte: number }[] }
  | { kind: 'set-key'; target: number; key: string; insert: Insert }
  | { kind: 'replace'; target: number; insert: Insert };

const insertArb: fc.Arbitrary<Insert> = fc.oneof(
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant('proto-object' as const),
    key: fc.constantFrom(...PROTOTYPE_KEYS),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    // Deep enough to overflow any recursive walk (JSON.stringify, String(), a recursive schema).
    depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1000, max: 30_000 })),
    shape: fc.constantFrom('array' as const, 'object' as const),
  }),
);

/** Every way of damaging a document, equally likely. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    flips: fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  fc.record({
    kind: fc.constant('set-key' as const),
    target: fc.nat(),
    key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 8 })),
    insert: insertArb,
  }),
  fc.record({ kind: fc.constant('replace' as const), target: fc.nat(), insert: insertArb }),
);

/** Paths of every value in a document (iterative: documents here are small). */
const pathsOf = (root: unknown): { path: Path; value: unknown }[] => {
  const out: { path: Path; value: unknown }[] = [];
  const stack: { path: Path; value: unknown }[] = [{ path: [], value: root }];
  while (stack.length > 0) {
    const item = stack.pop() as { path: Path; value: unknown };
    out.push(item);
    if (Array.isArray(item.value)) {
      item.value.forEach((value, index) => {
        stack.push({ path: [...item.path, index], value });
      });
    } else if (typeof item.value === 'object' && item.value !== null) {
      for (const [key, value] of Object.entries(item.value)) {
        stack.push({ path: [...item.path, key], value });
      }
    }
  }
  return out;
};

const MARKER = '\u0000deep-marker\u0000';

/** Sets an own property, even one named `__proto__` (assignment would change the prototype). */
const setOwn = (target: object, key: string | number, value: unknown): void => {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};

const materialise = (insert: Insert, deep: string[]): unknown => {
  if (insert.kind === 'json') return insert.value;
  if (insert.kind === 'proto-object') {
    const object = {};
    setOwn(object, insert.key, insert.value);
    return object;
  }
  const text =
    insert.shape === 'array'
      ? `${'['.repeat(insert.depth)}${']'.repeat(insert.depth)}`
      : `${'{"a":'.repeat(insert.depth)}1${'}'.repeat(insert.depth)}`;
  deep.push(text);
  return `${MARKER}${deep.length - 1}`;
};

/**
 * Applies a mutation to the text of a JSON document (`document` is its parsed value). Structural
 * mutations rewrite the document with `JSON.stringify(..., 2)`, as the writers here do; deep
 * nesting is spliced in as text, since building it as a value would overflow the stringifier.
 */
export const applyMutation = (text: string, document: unknown, mutation: Mutation): Buffer => {
  const bytes = Buffer.from(text);
  if (mutation.kind === 'truncate') return bytes.subarray(0, mutation.at % (bytes.length + 1));
  if (mutation.kind === 'flip') {
    const copy = Buffer.from(bytes);
    for (const flip of mutation.flips) copy[flip.at % copy.length] = flip.byte;
    return copy;
  }
  const copy = structuredClone(document);
  const deep: string[] = [];
  const candidates = pathsOf(copy).filter(({ value }) =>
    mutation.kind === 'set-key'
      ? typeof value === 'object' && value !== null && !Array.isArray(value)
      : true,
  );
  const chosen = candidates[mutation.target % candidates.length] as { path: Path; value: unknown };
  const value = materialise(mutation.insert, deep);
  let result: unknown = copy;
  if (mutation.kind === 'set-key') setOwn(chosen.value as object, mutation.key, value);
  else if (chosen.path.length === 0) result = value;
  else {
    let parent = copy as Record<string | number, unknown>;
    for (const key of chosen.path.slice(0, -1)) {
      parent = parent[key] as Record<string | number, unknown>;
    }
    setOwn(parent, chosen.path.at(-1) as string | number, value);
  }
  let out = JSON.stringify(result, null, 2);
  deep.forEach((nested, index) => {
    out = out.replace(JSON.stringify(`${MARKER}${index}`), nested);
  });
  return Buffer.from(out);
};

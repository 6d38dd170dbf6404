import { fuzzSettings, fuzzTimeout } from '@hankweave/durable-io/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig, runtimeConfigFromEnv } from './read-runtime-config.js';
import {
  type ConfigKeySpec,
  type ConfigValue,
  checkConfigValue,
  envNameOf,
  RUNTIME_CONFIG_KEYS,
} from './runtime-config-keys.js';

// Properties of the runtime config's reading: any JSON value is either accepted with exactly its
// valid known keys or refused with one problem per bad field (never a throw), and every valid
// value survives the trip through its HANKWEAVE_RUNTIME_* variable. FUZZ_SEED / FUZZ_RUNS replay
// or lengthen it (fuzzSettings of durable-io/testing).

const RUNS = 200;

function validValue(spec: ConfigKeySpec): fc.Arbitrary<ConfigValue> {
  const { kind } = spec;
  switch (kind.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: kind.min, max: kind.max ?? 1_000_000_000 });
    case 'positive':
      return fc.double({ min: 1e-6, max: 1e9, noNaN: true });
    case 'string':
      return fc.string({ minLength: 1 }).filter((text) => text.trim() !== '');
    case 'url':
      return fc.webUrl({ validSchemes: ['http', 'https'] });
  }
}

const anyKey = fc.constantFrom(...RUNTIME_CONFIG_KEYS);
const TOP_KEYS = new Set(RUNTIME_CONFIG_KEYS.map((spec) => spec.key.split('.')[0] as string));
/** A field: a known key with a valid value, a known key with any JSON, or an unknown key. */
const field = fc.oneof(
  anyKey.chain((spec) =>
    fc.tuple(fc.constant(spec.key), validValue(spec) as fc.Arbitrary<unknown>),
  ),
  anyKey.chain((spec) => fc.tuple(fc.constant(spec.key), fc.jsonValue() as fc.Arbitrary<unknown>)),
  fc
    .string({ minLength: 1 })
    .filter(
      (key) => !TOP_KEYS.has(key) && !key.includes('.') && key !== '$schema' && key !== '__proto__',
    )
    .chain((key) => fc.tuple(fc.constant(key), fc.jsonValue() as fc.Arbitrary<unknown>)),
);

function nest(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, Record<string, unknown> | unknown> = {};
  for (const [key, value] of entries) {
    const [head, tail] = key.split('.') as [string, string | undefined];
    if (tail === undefined) object[head] = value;
    else object[head] = { ...((object[head] as Record<string, unknown>) ?? {}), [tail]: value };
  }
  return object;
}

describe('runtime config reading (property)', () => {
  it(
    'accepts exactly the valid known keys, and names every other field',
    () => {
      fc.assert(
        fc.property(fc.uniqueArray(field, { selector: ([key]) => key, maxLength: 8 }), (fields) => {
          const { values, problems } = parseRuntimeConfig(nest(fields));
          const expected = new Map<string, unknown>();
          const bad = new Set<string>();
          for (const [key, value] of fields) {
            const spec = RUNTIME_CONFIG_KEYS.find((candidate) => candidate.key === key);
            const checked = spec ? checkConfigValue(spec, value) : undefined;
            if (checked?.ok) expected.set(key, checked.value);
            else bad.add(key);
          }
          expect(Object.fromEntries(values)).toEqual(Object.fromEntries(expected));
          expect(new Set(problems.map((problem) => problem.field))).toEqual(bad);
          expect(problems).toHaveLength(bad.size);
        }),
        fuzzSettings(RUNS),
      );
    },
    fuzzTimeout(RUNS, 5),
  );

  it(
    'every valid value survives the trip through its HANKWEAVE_RUNTIME_* variable',
    () => {
      fc.assert(
        fc.property(
          anyKey.chain((spec) => fc.tuple(fc.constant(spec), validValue(spec))),
          ([spec, value]) => {
            const { values, problems } = runtimeConfigFromEnv({
              [envNameOf(spec.key)]: String(value),
            });
            expect(problems).toEqual([]);
            expect(values.get(spec.key)).toEqual(value);
          },
        ),
        fuzzSettings(RUNS),
      );
    },
    fuzzTimeout(RUNS, 5),
  );
});

import { normalizeRelative, relativeInside } from '@hankweave/durable-io';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cloneData,
  FUZZ_RUNS,
  FUZZ_SEED,
  fuzz,
  fuzzTimeout,
  nested,
  nestingDepth,
  PROTOTYPE_KEYS,
  pathsOf,
  replaceAt,
  setOwn,
  sizeOf,
} from '../../test/fuzz.js';
import { hankishRoot, hankishValue, validHank } from '../../test/hank-arbitraries.js';
import { formatJsonPath, HANK_ISSUE_CODES, type HankValidation, validateHank } from '../index.js';
import { HANK_INPUT_LIMITS } from './input-limits.js';

// Property tests of validateHank: total (never throws), well formed, deterministic, pure, and
// stable under a JSON round-trip, on arbitrary JSON, on structure-aware junk and on valid hanks
// mutated in the ways a hostile user would. FUZZ_RUNS / FUZZ_SEED: see test/fuzz.ts.

/** Validates without throwing out of the property (a throw is the first thing checked). */
function check(input: unknown): HankValidation {
  const before = safeJson(input);
  const result = validateHank(input);
  expect(result.valid).toBe(result.errors.length === 0);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(typeof issue.path).toBe('string');
    expect(HANK_ISSUE_CODES).toContain(issue.code);
    expect(typeof issue.message).toBe('string');
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.message.length).toBeLessThan(2000);
  }
  if (result.valid) expect(result.config).toBeDefined();
  // Deterministic, and the input is left as it was.
  expect(validateHank(input)).toEqual(result);
  expect(safeJson(input)).toBe(before);
  // A hank that validates still validates after a JSON round-trip.
  if (result.valid) expect(validateHank(cloneData(input)).valid).toBe(true);
  return result;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

const codes = (result: HankValidation) => result.errors.map((issue) => issue.code);
const objectPaths = (value: unknown) =>
  pathsOf(value).filter(
    (entry) =>
      typeof entry.value === 'object' && entry.value !== null && !Array.isArray(entry.value),
  );

describe(`validateHank() properties (FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED})`, () => {
  it('answers for any JSON value', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        check(input);
      }),
      fuzz(),
    );
  });

  it('answers for junk shaped like a hank', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(fc.oneof(hankishRoot, hankishValue), (input) => {
        check(input);
      }),
      fuzz(),
    );
  });

  it('accepts every generated valid hank', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(validHank, (hank) => {
        const result = check(hank);
        expect(result.errors).toEqual([]);
      }),
      fuzz(),
    );
  });

  it('reports a prototype-named key anywhere as an unknown field', {
    timeout: fuzzTimeout(),
  }, () => {
    fc.assert(
      fc.property(
        validHank,
        fc.nat(),
        fc.constantFrom(...PROTOTYPE_KEYS),
        fc.jsonValue({ maxDepth: 2 }),
        (generated, pick, key, value) => {
          // A copy: fast-check shares generated objects between cases.
          const hank = cloneData(generated);
          const objects = objectPaths(hank);
          const target = objects[pick % objects.length] as (typeof objects)[number];
          setOwn(target.value as object, key, value);
          const result = check(hank);
          expect(result.valid).toBe(false);
          expect(result.errors).toContainEqual(
            expect.objectContaining({
              path: formatJsonPath([...target.path, key]),
              code: 'unknown_field',
            }),
          );
        },
      ),
      fuzz(),
    );
  });

  it('answers when any value is replaced by any other', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(
        validHank,
        fc.nat(),
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), hankishValue),
        (generated, pick, value) => {
          const hank = cloneData(generated);
          const paths = pathsOf(hank).filter((entry) => entry.path.length > 0);
          const target = paths[pick % paths.length] as (typeof paths)[number];
          replaceAt(hank, target.path, value);
          check(hank);
        },
      ),
      fuzz(),
    );
  });

  it('reports nesting past the limit as too_deep, and only then', {
    timeout: fuzzTimeout(),
  }, () => {
    fc.assert(
      fc.property(
        validHank,
        fc.nat(),
        fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 120, max: 3000 })),
        (generated, pick, depth) => {
          const hank = cloneData(generated);
          const paths = pathsOf(hank).filter((entry) => entry.path.length > 0);
          const target = paths[pick % paths.length] as (typeof paths)[number];
          replaceAt(hank, target.path, nested(depth));
          const result = check(hank);
          if (nestingDepth(hank) > HANK_INPUT_LIMITS.maxDepth) {
            expect(codes(result)).toEqual(['too_deep']);
          } else {
            expect(codes(result)).not.toContain('too_deep');
          }
        },
      ),
      fuzz(),
    );
  });

  it('reports huge strings and arrays as too_large, and only then', {
    timeout: fuzzTimeout(200),
  }, () => {
    fc.assert(
      fc.property(
        validHank,
        fc.nat(),
        fc.constantFrom('string', 'array', 'object'),
        fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 90_000, max: 120_000 })),
        (generated, pick, kind, size) => {
          const hank = cloneData(generated);
          const paths = pathsOf(hank).filter((entry) => entry.path.length > 0);
          const target = paths[pick % paths.length] as (typeof paths)[number];
          const huge =
            kind === 'string'
              ? 'x'.repeat(size * 100)
              : kind === 'array'
                ? new Array(size).fill(0)
                : Object.fromEntries(Array.from({ length: size }, (_, index) => [`k${index}`, 1]));
          replaceAt(hank, target.path, huge);
          const result = check(hank);
          const { values, chars } = sizeOf(hank);
          if (values > HANK_INPUT_LIMITS.maxValues || chars > HANK_INPUT_LIMITS.maxChars) {
            expect(codes(result)).toEqual(['too_large']);
          } else {
            expect(codes(result)).not.toContain('too_large');
          }
        },
      ),
      // Each case builds and walks up to 12 million characters or 120,000 values.
      fuzz(0.1),
    );
  });

  it('checks paths exactly as durable-io resolves them', { timeout: fuzzTimeout() }, () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '', '..foo', '...', '*', '**');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const path = segments.join('/');
        const inside = relativeInside('/root', path.startsWith('/') ? `.${path}` : path);
        expect(normalizeRelative(path)).toBe(inside);
      }),
      fuzz(),
    );
  });
});

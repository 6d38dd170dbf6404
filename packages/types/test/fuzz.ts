import { fuzzSettings, fuzzTimeout as sharedTimeout } from '@hankweave/durable-io/testing';
import type fc from 'fast-check';

// Settings of the property tests, the repository's shared ones (durable-io/testing): FUZZ_RUNS
// cases per property (default 300, so `pnpm test` stays fast; `FUZZ_RUNS=100000` for a long
// local run), FUZZ_SEED (a fixed default, so CI runs the same seeded slice every time) and
// FUZZ_PATH. fast-check prints the seed and the path of a failure; set both to replay it.

const DEFAULT_RUNS = 300;
const settings = fuzzSettings(DEFAULT_RUNS);

/** Cases per property. */
export const FUZZ_RUNS = settings.numRuns;
/** The seed of every property. */
export const FUZZ_SEED = settings.seed;

/** fast-check parameters: the seed, and a `fraction` of FUZZ_RUNS cases (for costly properties). */
export function fuzz(fraction = 1): fc.Parameters<unknown> {
  return { ...settings, numRuns: Math.max(1, Math.ceil(settings.numRuns * fraction)) };
}

/**
 * A vitest timeout that grows with the number of runs (generous: shrinking takes time too, and a
 * loaded 2-core machine runs a 10 s property in 40 s; the timeout only has to catch a hang).
 */
export function fuzzTimeout(perCaseMs = 20): number {
  return sharedTimeout(DEFAULT_RUNS, perCaseMs, 120_000);
}

/** Keys named like Object.prototype members: each once crashed the typo hints. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'valueOf',
  'toString',
  'toLocaleString',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

/** Sets an own key as JSON.parse does, even for `__proto__`. */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A deep copy of plain data that keeps `__proto__` keys as own keys. */
export function cloneData<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every path inside `value` (the root is `[]`), with the value found there. Iterative. */
export function pathsOf(value: unknown): { path: (string | number)[]; value: unknown }[] {
  const found: { path: (string | number)[]; value: unknown }[] = [];
  const pending: { path: (string | number)[]; value: unknown }[] = [{ path: [], value }];
  while (pending.length > 0) {
    const entry = pending.pop() as { path: (string | number)[]; value: unknown };
    found.push(entry);
    if (Array.isArray(entry.value)) {
      for (const [index, child] of entry.value.entries()) {
        pending.push({ path: [...entry.path, index], value: child });
      }
    } else if (typeof entry.value === 'object' && entry.value !== null) {
      for (const key of Object.keys(entry.value)) {
        const child = (entry.value as Record<string, unknown>)[key];
        pending.push({ path: [...entry.path, key], value: child });
      }
    }
  }
  return found;
}

/** Replaces the value at `path` (not the root) in `root`, in place. */
export function replaceAt(root: unknown, path: (string | number)[], value: unknown): void {
  let parent = root as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as typeof parent;
  setOwn(parent, String(path[path.length - 1]), value);
}

/** A value nested `depth` levels: objects `{key: …}` and arrays alternating. */
export function nested(depth: number, key = 'type'): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { [key]: value };
  return value;
}

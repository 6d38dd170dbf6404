/** The seed when `FUZZ_SEED` is not set: CI replays the same cases on every run. */
export const DEFAULT_FUZZ_SEED = 16_016;

/** The settings of one property, in the shape fast-check's `fc.assert(…, parameters)` takes. */
export interface FuzzSettings {
  seed: number;
  numRuns: number;
  /** The shrink path fast-check printed with a failure, to replay exactly that case. */
  path?: string;
}

function integerFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new TypeError(`${name} must be an integer, not "${raw}"`);
  return value;
}

/** `FUZZ_RUNS` when set (a positive integer), else `defaultRuns`. */
export function fuzzRuns(defaultRuns: number): number {
  return Math.max(1, integerFromEnv('FUZZ_RUNS') ?? defaultRuns);
}

/**
 * The settings of every property test of the repository, from the environment: `FUZZ_SEED`
 * (default {@link DEFAULT_FUZZ_SEED}), `FUZZ_RUNS` (default `defaultRuns`, kept small so CI stays
 * fast; `FUZZ_RUNS=100000` for a long local run) and `FUZZ_PATH`. On a failure fast-check prints
 * the seed and the path to set to replay it.
 */
export function fuzzSettings(defaultRuns: number): FuzzSettings {
  return {
    seed: integerFromEnv('FUZZ_SEED') ?? DEFAULT_FUZZ_SEED,
    numRuns: fuzzRuns(defaultRuns),
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
  };
}

/** A test timeout that grows with the number of runs: `msPerRun` per case, at least `minMs`. */
export function fuzzTimeout(defaultRuns: number, msPerRun: number, minMs = 60_000): number {
  return Math.max(minMs, fuzzRuns(defaultRuns) * msPerRun);
}

/**
 * How far the torture and kill tests go: `short` (the default, what `pnpm test:int` and CI run)
 * or `long` (`pnpm test:long`, the same tests at full size, outside CI).
 */
export type TestDepth = 'short' | 'long';

/** The variable {@link testDepth} reads: `HANKWEAVE_TEST_DEPTH=long` for the full sizes. */
export const TEST_DEPTH_ENV = 'HANKWEAVE_TEST_DEPTH';

/** `HANKWEAVE_TEST_DEPTH`: `short` when unset or empty, `long`; anything else is refused. */
export function testDepth(): TestDepth {
  const raw = process.env[TEST_DEPTH_ENV];
  if (raw === undefined || raw === '' || raw === 'short') return 'short';
  if (raw === 'long') return 'long';
  throw new TypeError(`${TEST_DEPTH_ENV} must be "short" or "long", not "${raw}"`);
}

/**
 * The size of a torture or kill test at the current {@link testDepth}: the `short` one keeps CI
 * within its time, the `long` one is what the guarantee was first measured at. A test's own
 * variable (STATE_KILL_COUNT and the like) still wins over both.
 */
export function atDepth(sizes: { short: number; long: number }): number {
  return testDepth() === 'long' ? sizes.long : sizes.short;
}

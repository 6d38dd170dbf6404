import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  atDepth,
  DEFAULT_FUZZ_SEED,
  fuzzSettings,
  fuzzTimeout,
  testDepth,
} from './fuzz-settings.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('fuzzSettings()', () => {
  it('defaults to the fixed seed and the given runs', () => {
    vi.stubEnv('FUZZ_SEED', '');
    vi.stubEnv('FUZZ_RUNS', '');
    vi.stubEnv('FUZZ_PATH', '');
    expect(fuzzSettings(50)).toEqual({ seed: DEFAULT_FUZZ_SEED, numRuns: 50 });
    expect(fuzzTimeout(50, 10)).toBe(60_000);
  });

  it('takes seed, runs and path from the environment, and refuses a bad number', () => {
    vi.stubEnv('FUZZ_SEED', '-42');
    vi.stubEnv('FUZZ_RUNS', '100000');
    vi.stubEnv('FUZZ_PATH', '3:1:0');
    expect(fuzzSettings(50)).toEqual({ seed: -42, numRuns: 100_000, path: '3:1:0' });
    expect(fuzzTimeout(50, 10)).toBe(1_000_000);
    vi.stubEnv('FUZZ_RUNS', 'many');
    expect(() => fuzzSettings(50)).toThrow(/FUZZ_RUNS must be an integer/);
  });
});

describe('atDepth()', () => {
  it('takes the short size unless HANKWEAVE_TEST_DEPTH is long, and refuses any other depth', () => {
    vi.stubEnv('HANKWEAVE_TEST_DEPTH', '');
    expect(testDepth()).toBe('short');
    expect(atDepth({ short: 50, long: 200 })).toBe(50);
    vi.stubEnv('HANKWEAVE_TEST_DEPTH', 'long');
    expect(atDepth({ short: 50, long: 200 })).toBe(200);
    vi.stubEnv('HANKWEAVE_TEST_DEPTH', 'deep');
    expect(() => atDepth({ short: 50, long: 200 })).toThrow(/HANKWEAVE_TEST_DEPTH must be/);
  });
});

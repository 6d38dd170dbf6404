import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchTtlFromEnv,
  DEFAULT_BRANCH_TTL_MS,
  defaultCacheDir,
  repositoryCacheDir,
} from './cache-dir.js';

describe('defaultCacheDir()', () => {
  it('prefers HANKWEAVE_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(defaultCacheDir({ HANKWEAVE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'hankweave'));
    expect(defaultCacheDir({ HOME: '/h' })).toBe(join('/h', '.cache', 'hankweave'));
  });
});

describe('branchTtlFromEnv()', () => {
  it('reads whole seconds, else the default', () => {
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: '0' })).toBe(0);
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: '90' })).toBe(90_000);
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: 'soon' })).toBe(DEFAULT_BRANCH_TTL_MS);
    expect(branchTtlFromEnv({})).toBe(10 * 60 * 1000);
  });
});

describe('repositoryCacheDir()', () => {
  it('names a readable, hashed folder under remote/', () => {
    const dir = repositoryCacheDir('/c', 'https://github.com/o/r.git');
    expect(dir).toMatch(/^\/c\/remote\/github\.com-o-r-[0-9a-f]{12}$/);
    expect(repositoryCacheDir('/c', 'https://github.com/o/r')).not.toBe(dir);
  });
});

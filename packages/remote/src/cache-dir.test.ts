import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchTtlFromEnv,
  DEFAULT_BRANCH_TTL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  remoteTimeoutFromEnv,
  repositoryCacheDir,
} from './cache-dir.js';
import { defaultCacheDir } from './default-cache-dir.js';

describe('defaultCacheDir()', () => {
  it('prefers HANKWEAVE_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(defaultCacheDir({ HANKWEAVE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'hankweave'));
    expect(defaultCacheDir({ HOME: '/h' })).toBe(join('/h', '.cache', 'hankweave'));
  });
});

describe('branchTtlFromEnv()', () => {
  it('reads whole seconds; unset or empty gives the default', () => {
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: '0' })).toBe(0);
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: '90' })).toBe(90_000);
    // A value it cannot mean is refused, naming the variable, never replaced by the default.
    expect(() => branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: 'soon' })).toThrow(
      expect.objectContaining({
        code: 'REMOTE_INVALID_SETTING',
        message: expect.stringContaining('HANKWEAVE_REMOTE_TTL_SECONDS must be a whole number'),
      }),
    );
    expect(branchTtlFromEnv({ HANKWEAVE_REMOTE_TTL_SECONDS: ' ' })).toBe(DEFAULT_BRANCH_TTL_MS);
    expect(branchTtlFromEnv({})).toBe(10 * 60 * 1000);
  });
});

describe('remoteTimeoutFromEnv()', () => {
  it('reads whole seconds above 0, and refuses anything else naming the variable', () => {
    expect(remoteTimeoutFromEnv({})).toBe(DEFAULT_REMOTE_TIMEOUT_MS);
    expect(remoteTimeoutFromEnv({ HANKWEAVE_REMOTE_TIMEOUT_SECONDS: '5' })).toBe(5000);
    for (const bad of ['0', '1.5', '-3', 'long'])
      expect(() => remoteTimeoutFromEnv({ HANKWEAVE_REMOTE_TIMEOUT_SECONDS: bad })).toThrow(
        /^HANKWEAVE_REMOTE_TIMEOUT_SECONDS must be a whole number of seconds above 0/,
      );
  });
});

describe('repositoryCacheDir()', () => {
  it('names a readable, hashed folder under remote/', () => {
    const dir = repositoryCacheDir('/c', 'https://github.com/o/r.git');
    expect(dir).toMatch(/^\/c\/remote\/github\.com-o-r-[0-9a-f]{12}$/);
    expect(repositoryCacheDir('/c', 'https://github.com/o/r')).not.toBe(dir);
  });
});

import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default time a resolved branch is trusted before the remote is asked again: 10 minutes. */
export const DEFAULT_BRANCH_TTL_MS = 10 * 60 * 1000;

/**
 * hankweave's cache directory: `HANKWEAVE_CACHE_DIR`, else `$XDG_CACHE_HOME/hankweave`, else
 * `~/.cache/hankweave`. Remote hanks live in its `remote/` folder.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HANKWEAVE_CACHE_DIR) return env.HANKWEAVE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'hankweave');
}

/**
 * The branch TTL from `HANKWEAVE_REMOTE_TTL_SECONDS` (a whole number of seconds, 0 = ask the
 * remote every time), else {@link DEFAULT_BRANCH_TTL_MS}. An unreadable value is ignored.
 */
export function branchTtlFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.HANKWEAVE_REMOTE_TTL_SECONDS;
  if (text === undefined || !/^\d+$/.test(text.trim())) return DEFAULT_BRANCH_TTL_MS;
  return Number(text.trim()) * 1000;
}

/**
 * The cache folder of one repository: `<cacheDir>/remote/<host-and-path>-<12 hex of sha256>`.
 * `url` must be without credentials, so two tokens for one repository share it and no secret
 * is ever part of a path.
 */
export function repositoryCacheDir(cacheDir: string, url: string): string {
  const readable = url
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^[^@/]+@/, '')
    .replace(/\.git$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 60);
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
  return join(cacheDir, 'remote', `${readable}-${hash}`);
}

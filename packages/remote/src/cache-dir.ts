import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { RemoteError } from './errors.js';

/** The default time a resolved branch is trusted before the remote is asked again: 10 minutes. */
export const DEFAULT_BRANCH_TTL_MS = 10 * 60 * 1000;

/**
 * A whole number of seconds from `variable`, in ms; `fallback` when it is unset or empty.
 *
 * @throws {RemoteError} REMOTE_INVALID_SETTING when it is set to anything else (or to 0 when 0
 *   means nothing), naming the variable: a setting is never silently replaced by the default.
 */
function secondsSetting(
  env: NodeJS.ProcessEnv,
  variable: string,
  fallback: number,
  meaning: string,
  zeroAllowed: boolean,
): number {
  const text = env[variable]?.trim();
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || (!zeroAllowed && Number(text) === 0)) {
    throw new RemoteError(
      'REMOTE_INVALID_SETTING',
      `${variable} must be a whole number of seconds${zeroAllowed ? '' : ' above 0'} (${meaning}), got ${JSON.stringify(text)}; fix it or unset it for the default`,
      { details: { variable } },
    );
  }
  return Number(text) * 1000;
}

/**
 * The branch TTL from `HANKWEAVE_REMOTE_TTL_SECONDS` (a whole number of seconds, 0 = ask the
 * remote every time), else {@link DEFAULT_BRANCH_TTL_MS}.
 *
 * @throws {RemoteError} REMOTE_INVALID_SETTING for a value that is not a whole number.
 */
export function branchTtlFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return secondsSetting(
    env,
    'HANKWEAVE_REMOTE_TTL_SECONDS',
    DEFAULT_BRANCH_TTL_MS,
    'how long a resolved branch is used; 0 asks the remote every time',
    true,
  );
}

/** How long a request to a remote may go without a byte before it is abandoned (30 s). */
export const DEFAULT_REMOTE_TIMEOUT_MS = 30_000;

/**
 * The remote's idle timeout from `HANKWEAVE_REMOTE_TIMEOUT_SECONDS` (a whole number of seconds
 * above 0), else {@link DEFAULT_REMOTE_TIMEOUT_MS}.
 *
 * @throws {RemoteError} REMOTE_INVALID_SETTING for a value that is not a whole number above 0.
 */
export function remoteTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return secondsSetting(
    env,
    'HANKWEAVE_REMOTE_TIMEOUT_SECONDS',
    DEFAULT_REMOTE_TIMEOUT_MS,
    'how long a request may get nothing from the remote',
    false,
  );
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

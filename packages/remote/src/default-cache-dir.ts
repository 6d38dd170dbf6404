import { homedir } from 'node:os';
import { join } from 'node:path';

// Node's own modules only: the CLI reads this before anything else loads (its compile cache lives
// here), through the light entry `@hankweave/remote/cache-dir`.

/**
 * hankweave's cache directory: `HANKWEAVE_CACHE_DIR`, else `$XDG_CACHE_HOME/hankweave`, else
 * `~/.cache/hankweave`. Remote hanks live in its `remote/` folder.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HANKWEAVE_CACHE_DIR) return env.HANKWEAVE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'hankweave');
}

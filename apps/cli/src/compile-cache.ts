import module from 'node:module';
import { isAbsolute, join } from 'node:path';
import { defaultCacheDir } from '@hankweave/remote/cache-dir';

/**
 * Where the CLI keeps Node's compile cache: `node-compile-cache` in hankweave's cache directory
 * (`HANKWEAVE_CACHE_DIR`, else `$XDG_CACHE_HOME/hankweave`, else `~/.cache/hankweave`), or
 * nowhere when that is a relative path. V8 runs the code it finds in the cache, so it must live
 * where only the user writes: never Node's default under the shared temporary directory (another
 * local user can create that first), never a path relative to wherever the command runs (an
 * execution directory that an agent writes).
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const cacheDir = defaultCacheDir(env);
  return isAbsolute(cacheDir) ? join(cacheDir, 'node-compile-cache') : undefined;
}

type EnableCompileCache = (directory?: string) => { status: number; message?: string };

/**
 * Turns on Node's module compile cache (Node 22.1 and later; a no-op on Node 20): a command's
 * modules then load from compiled code kept across runs, about a tenth less start-up. Node's own
 * switches still win: `NODE_DISABLE_COMPILE_CACHE=1` turns it off, `NODE_COMPILE_CACHE=<dir>`
 * moves it. A cache that cannot be made (a read-only home) is skipped without a word: it is an
 * optimization, never a reason for a command to fail.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  const directory = compileCacheDir(env);
  if (typeof enable !== 'function' || directory === undefined) return;
  try {
    enable(directory);
  } catch {
    // Documented never to throw; a future Node that does must not stop the CLI.
  }
}

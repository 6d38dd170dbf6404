import { posix } from 'node:path';

/**
 * The key of a path: absolute, normalised POSIX (`a/../b` → `/b`, no trailing slash). Relative
 * paths are taken from `/`, since a database has no working directory.
 */
export function normalizePath(path: unknown): string {
  const text = path instanceof URL ? path.pathname : Buffer.isBuffer(path) ? path.toString() : path;
  if (typeof text !== 'string' || text.length === 0 || text.includes('\0')) {
    throw Object.assign(new TypeError(`Invalid path: ${String(path)}`), {
      code: 'ERR_INVALID_ARG_VALUE',
    });
  }
  return posix.resolve('/', text);
}

/** The directory holding `path` (`/` for `/` itself). */
export const parentOf = (path: string): string => posix.dirname(path);

/** The last component of `path`. */
export const nameOf = (path: string): string => posix.basename(path);

/** `/a`, `/a/b` for `/a/b/c`: every directory above `path` except `/`, top first. */
export function ancestorsOf(path: string): string[] {
  const ancestors: string[] = [];
  for (let dir = parentOf(path); dir !== '/'; dir = parentOf(dir)) ancestors.unshift(dir);
  return ancestors;
}

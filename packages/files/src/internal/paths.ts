import { resolve } from 'node:path';
import { relativeInside } from '@hankweave/durable-io';
import { FilesError } from '../errors.js';

/** `path.resolve` for a root given by the caller, as a POSIX string without a trailing slash. */
export function absoluteRoot(root: string): string {
  if (typeof root !== 'string' || root === '' || root.includes('\0')) {
    throw new FilesError('FILES_INVALID_PATH', 'The root must be a non-empty path', {
      details: { root: String(root) },
    });
  }
  return resolve(root);
}

/**
 * Turns an absolute path, or one relative to `root`, into a POSIX path relative to `root`.
 * The check is lexical (symlinks are never followed anywhere in this package).
 *
 * @throws {FilesError} FILES_PATH_ESCAPES_ROOT when the path lies outside the root.
 * @throws {FilesError} FILES_INVALID_PATH when the path is empty, contains NUL, or is the root.
 */
export function toRootRelative(root: string, path: string): string {
  const rootAbs = absoluteRoot(root);
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    throw new FilesError('FILES_INVALID_PATH', 'A path must be a non-empty string without NUL', {
      details: { path: String(path) },
    });
  }
  const rel = relativeInside(rootAbs, path);
  if (rel === undefined) {
    throw new FilesError('FILES_PATH_ESCAPES_ROOT', `The path ${path} lies outside the root`, {
      details: { root: rootAbs, path },
    });
  }
  if (rel === '') {
    throw new FilesError('FILES_INVALID_PATH', 'The path is the root itself, not a file', {
      details: { root: rootAbs, path },
    });
  }
  return rel;
}

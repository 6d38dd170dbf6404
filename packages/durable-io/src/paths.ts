import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A relative POSIX path (or glob text) with `.`, empty segments and `..` resolved lexically, or
 * undefined when a `..` climbs above the start. Touches no glob syntax and no disk: for checking
 * that a path a user wrote stays under its root before anything is resolved against it.
 */
export function normalizeRelative(path: string): string | undefined {
  const kept: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (kept.length === 0) return undefined;
      kept.pop();
      continue;
    }
    kept.push(part);
  }
  return kept.join('/');
}

/**
 * Where `path` lies inside `root`, as a POSIX path relative to it (`''` for the root itself), or
 * `undefined` when it lies outside. Lexical: `..` segments are resolved, symlinks are not
 * followed (callers that must not pass through links check them). A name that merely starts with
 * two dots (`..foo`) is inside.
 */
export function relativeInside(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), resolve(root, path));
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** True when `path` (absolute, or relative to `root`) is `root` itself or lies inside it. */
export function isInside(root: string, path: string): boolean {
  return relativeInside(root, path) !== undefined;
}

import { CheckpointError } from '../errors.js';

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Orders strings by UTF-8 bytes, which is git's order for index entries and, because a
 * directory's entries all continue with "/", also the order of a depth-first tree walk. JS's
 * default comparison (UTF-16 units) agrees except around surrogate pairs, so it is used unless
 * one is present.
 */
export function sortByBytes(values: string[]): string[] {
  if (!values.some((value) => SURROGATE.test(value))) return values.sort();
  return values.sort(compareCodePoints);
}

/** Code-point (= UTF-8 byte) comparison. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Throws `CHECKPOINT_INVALID_PATH` unless `path` is a clean relative POSIX path. */
export function assertRelativePath(path: string): void {
  let problem: string | undefined;
  if (typeof path !== 'string' || path.length === 0) problem = 'is empty';
  else if (path.includes('\0')) problem = 'contains a NUL byte';
  else if (path.startsWith('/')) problem = 'is absolute';
  else {
    for (const segment of path.split('/')) {
      if (segment === '' || segment === '.' || segment === '..') {
        problem = `has a "${segment}" segment`;
        break;
      }
    }
  }
  if (problem !== undefined) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_PATH',
      `tracked path ${JSON.stringify(path)} ${problem}`,
      {
        details: { path },
      },
    );
  }
}

/**
 * True when a segment is `.git` in any case: git refuses such tree entries (fsck `hasDotgit`) and
 * a nested repository's internals are never an agent's work.
 */
export function isInGitDir(path: string): boolean {
  const lower = path.toLowerCase();
  return (
    lower === '.git' ||
    lower.startsWith('.git/') ||
    lower.includes('/.git/') ||
    lower.endsWith('/.git')
  );
}

/** `a/b/c` → `a/b`; top-level paths → ''. */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Calls `visit` for every ancestor directory of `path`, nearest first, ending with ''. */
export function forEachAncestor(path: string, visit: (dir: string) => boolean | undefined): void {
  let at = path.lastIndexOf('/');
  while (at >= 0) {
    if (visit(path.slice(0, at)) === false) return;
    at = path.lastIndexOf('/', at - 1);
  }
  visit('');
}

import { normalizeRelative } from '@hankweave/durable-io';
import micromatch from 'micromatch';
import { FilesError } from '../errors.js';

/** Globs compiled once per pattern list: the per-file test and the pruning tests. */
export interface CompiledPatterns {
  /** True when no positive pattern exists, so nothing can match. */
  readonly empty: boolean;
  /** True when the file path matches a positive pattern and no negation. */
  matches(path: string): boolean;
  /** False when nothing below this directory (no trailing slash) can be in the result. */
  mayDescend(dirRel: string): boolean;
}

/** A pattern list split into positive and negated globs, normalised relative to the root. */
export interface NormalizedPatterns {
  readonly positive: readonly string[];
  readonly negative: readonly string[];
}

/**
 * Normalises one pattern: strips `./`, collapses `//`, resolves `..`, turns an absolute pattern
 * inside the root into a relative one, and a trailing `/` (a directory) into `/**`.
 *
 * @throws {FilesError} FILES_INVALID_PATTERN for a non-string, empty or bare `!` pattern.
 * @throws {FilesError} FILES_PATH_ESCAPES_ROOT when the pattern points outside the root.
 */
export function normalizePattern(
  pattern: string,
  rootAbs?: string,
): { negated: boolean; glob: string } {
  if (typeof pattern !== 'string' || pattern.includes('\0')) {
    throw new FilesError('FILES_INVALID_PATTERN', 'A pattern must be a string without NUL', {
      details: { pattern: String(pattern) },
    });
  }
  const negated = pattern.startsWith('!');
  let body = negated ? pattern.slice(1) : pattern;
  if (body === '') {
    throw new FilesError('FILES_INVALID_PATTERN', 'A pattern must not be empty', {
      details: { pattern },
    });
  }
  if (body.startsWith('/')) {
    if (rootAbs === undefined) return { negated, glob: body };
    const prefix = rootAbs.endsWith('/') ? rootAbs : `${rootAbs}/`;
    if (body !== rootAbs && !body.startsWith(prefix)) throw escapes(pattern, rootAbs);
    body = body.slice(prefix.length);
  }
  const directory = body.endsWith('/');
  const normalized = normalizeRelative(body);
  if (normalized === undefined) throw escapes(pattern, rootAbs);
  if (normalized === '') return { negated, glob: '**' };
  return { negated, glob: directory ? `${normalized}/**` : normalized };
}

function escapes(pattern: string, rootAbs: string | undefined): FilesError {
  return new FilesError(
    'FILES_PATH_ESCAPES_ROOT',
    `The pattern ${pattern} points outside the root`,
    {
      details: { pattern, ...(rootAbs ? { root: rootAbs } : {}) },
    },
  );
}

/** Splits and normalises a pattern list. */
export function normalizePatterns(
  patterns: readonly string[],
  rootAbs: string | undefined,
): NormalizedPatterns {
  if (!Array.isArray(patterns)) {
    throw new FilesError('FILES_INVALID_PATTERN', 'Patterns must be an array of strings');
  }
  const positive: string[] = [];
  const negative: string[] = [];
  for (const pattern of patterns) {
    const { negated, glob } = normalizePattern(pattern, rootAbs);
    (negated ? negative : positive).push(glob);
  }
  return { positive, negative };
}

type Matcher = (path: string) => boolean;

function compile(globs: readonly string[], nocase: boolean): Matcher {
  try {
    const tests = globs.map((glob) => micromatch.matcher(glob, { dot: true, nocase }));
    if (tests.length === 1) return tests[0] as Matcher;
    return (path) => tests.some((test) => test(path));
  } catch (cause) {
    throw new FilesError('FILES_INVALID_PATTERN', 'A pattern could not be compiled', {
      cause,
      details: { patterns: [...globs] },
    });
  }
}

const MATCH_ALL = new Set(['**', '**/*']);

/**
 * Compiles micromatch matchers once per pattern list (never per file). Negations apply to the
 * whole result; a negation ending in `/**` also prunes the directories its prefix matches, and
 * the literal segments and depth of the positive globs bound where the walk needs to go at all.
 */
export function compilePatterns(
  patterns: NormalizedPatterns,
  ignoreCase: boolean,
): CompiledPatterns {
  const { positive, negative } = patterns;
  const matchAll = positive.some((glob) => MATCH_ALL.has(glob));
  const positiveTest =
    matchAll || positive.length === 0 ? undefined : compile(positive, ignoreCase);
  const negativeTest = negative.length === 0 ? undefined : compile(negative, ignoreCase);
  const prunedDirectories = negative
    .filter((glob) => glob === '**' || glob.endsWith('/**'))
    .map((glob) => (glob === '**' ? '**' : glob.slice(0, -3)));
  const pruneTest = prunedDirectories.length ? compile(prunedDirectories, ignoreCase) : undefined;
  const reach = matchAll ? [] : positive.map((glob) => reachOf(glob, ignoreCase));
  return {
    empty: positive.length === 0,
    matches: (path) =>
      (positiveTest === undefined || positiveTest(path)) &&
      (negativeTest === undefined || !negativeTest(path)),
    mayDescend: (dirRel) => {
      if (pruneTest?.(dirRel)) return false;
      if (matchAll) return true;
      const segments = (ignoreCase ? dirRel.toLowerCase() : dirRel).split('/');
      return reach.some((test) => test(segments));
    },
  };
}

const SPECIAL = /[*?[\]{}()!+@\\]/;

/**
 * Which directories a glob can reach: those whose segments agree with the glob's literal
 * segments, and, for a glob without `**` (or `[`), that are shallower than the files it names.
 * Conservative (reaches everything) for braces and extglobs, which may hide a slash.
 */
function reachOf(glob: string, ignoreCase: boolean): (dirSegments: readonly string[]) => boolean {
  if (/[{(]/.test(glob)) return () => true;
  const segments = (ignoreCase ? glob.toLowerCase() : glob).split('/');
  // A bracket expression may match a slash in picomatch; treat it like `**` (any depth).
  const globstar = segments.findIndex((segment) => segment.includes('**') || segment.includes('['));
  const fixed = globstar === -1 ? segments.length : globstar;
  return (dirSegments) => {
    if (globstar === -1 && dirSegments.length >= segments.length) return false;
    const limit = Math.min(fixed, dirSegments.length);
    for (let i = 0; i < limit; i++) {
      const segment = segments[i] as string;
      if (!SPECIAL.test(segment) && segment !== dirSegments[i]) return false;
    }
    return true;
  };
}

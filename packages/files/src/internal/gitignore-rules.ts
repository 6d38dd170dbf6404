/**
 * Parsing of .gitignore text into rules. Matching itself is left to the `ignore` package; this
 * file only reads enough of git's syntax to know, for each rule, whether git matches it against
 * the basename (no slash except a trailing one) or against the path relative to the .gitignore's
 * directory (anchored), and to rewrite it relative to the root for the exact slow path.
 */

/** One rule of one .gitignore file. */
export interface GitignoreRule {
  /** The rule as written (after git's trimming), used when matching basenames. */
  readonly pattern: string;
  /** The same rule rewritten relative to the root, used when matching full paths. */
  readonly rebased: string;
  /** True when git matches it against the basename only. */
  readonly basenameOnly: boolean;
  /** Anchored rules only: the segments of the pattern, leading and trailing slash removed. */
  readonly segments: readonly string[];
  /** Anchored rules only: true when a segment may span several path segments (`**`, `[..]`). */
  readonly spansSegments: boolean;
}

const GLOB_CHARS = /[*?[\\]/;

/** True when a pattern segment can only match itself (no wildcard, class or escape). */
export function isLiteralSegment(segment: string): boolean {
  return !GLOB_CHARS.test(segment);
}

/** Git strips trailing spaces unless the last one is escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) {
    let backslashes = 0;
    for (let i = end - 2; i >= 0 && line.charCodeAt(i) === 0x5c; i--) backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

/** Escapes a directory prefix so that glob characters in directory names stay literal. */
function escapeDirectory(dirRel: string): string {
  const escaped = dirRel.replace(/[\\*?[]/g, '\\$&');
  return escaped.startsWith('!') || escaped.startsWith('#') ? `\\${escaped}` : escaped;
}

const UTF8_BOM = '\xef\xbb\xbf';

/**
 * Parses the text of the .gitignore in directory `dirRel` ('' for the root, else with a trailing
 * slash), both as byte strings (`toByteString`). Comments, blank lines, a UTF-8 BOM and one
 * trailing CR per line are dropped, as git does.
 */
export function parseGitignore(text: string, dirRel: string): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  const prefix = escapeDirectory(dirRel);
  const body = text.startsWith(UTF8_BOM) ? text.slice(UTF8_BOM.length) : text;
  for (const rawLine of body.split('\n')) {
    const line = trimTrailingSpaces(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (line === '' || line.startsWith('#')) continue;
    const negative = line.startsWith('!');
    const pattern = negative ? line.slice(1) : line;
    if (pattern === '' || pattern === '/') continue;
    const core = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
    const basenameOnly = !core.includes('/');
    const bang = negative ? '!' : '';
    if (basenameOnly) {
      rules.push({
        pattern: line,
        rebased: dirRel === '' ? line : `${bang}${prefix}**/${pattern}`,
        basenameOnly,
        segments: [],
        spansSegments: false,
      });
      continue;
    }
    const anchored = core.startsWith('/') ? core.slice(1) : core;
    rules.push({
      pattern: line,
      rebased: dirRel === '' ? line : `${bang}${prefix}${pattern.replace(/^\//, '')}`,
      basenameOnly,
      segments: anchored.split('/'),
      spansSegments: anchored.includes('**') || anchored.includes('['),
    });
  }
  return rules;
}

/**
 * Conservative test: can this anchored rule, from a .gitignore at `base`, match any direct child
 * of directory `dirRel`? False only when the segment count or a literal segment rules it out.
 */
export function mayMatchChildOf(
  rule: GitignoreRule,
  base: string,
  dirRel: string,
  ignoreCase: boolean,
): boolean {
  const relative = dirRel.slice(base.length);
  const dirSegments = relative === '' ? [] : relative.slice(0, -1).split('/');
  const { segments } = rule;
  if (!rule.spansSegments && segments.length !== dirSegments.length + 1) return false;
  const limit = Math.min(segments.length, dirSegments.length);
  for (let i = 0; i < limit; i++) {
    const segment = segments[i] as string;
    if (segment.includes('**') || segment.includes('[')) return true;
    if (!isLiteralSegment(segment)) continue;
    const actual = dirSegments[i] as string;
    const same = ignoreCase ? segment.toLowerCase() === actual.toLowerCase() : segment === actual;
    if (!same) return false;
  }
  return true;
}

import { describe, expect, it } from 'vitest';
import { isLiteralSegment, mayMatchChildOf, parseGitignore } from './gitignore-rules.js';

describe('parseGitignore()', () => {
  it('drops comments, blank lines, a BOM and one CR per line', () => {
    const rules = parseGitignore('\xef\xbb\xbf# c\r\n\r\n*.log\r\n  \n\\#x\n', '');
    expect(rules.map((rule) => rule.pattern)).toEqual(['*.log', '\\#x']);
  });

  it('trims trailing spaces unless the last one is escaped', () => {
    const rules = parseGitignore('a   \nb\\ \nc\\\\  \n', '');
    expect(rules.map((rule) => rule.pattern)).toEqual(['a', 'b\\ ', 'c\\\\']);
  });

  it('classifies rules without a slash (but a trailing one) as basename rules', () => {
    const rules = parseGitignore('a\nb/\n!c\n/d\ne/f\n**/g\n', '');
    expect(rules.map((rule) => rule.basenameOnly)).toEqual([true, true, true, false, false, false]);
    expect(rules[4]?.segments).toEqual(['e', 'f']);
    expect(rules[5]?.spansSegments).toBe(true);
  });

  it('rewrites nested rules relative to the root, escaping glob characters in the directory', () => {
    const rules = parseGitignore('*.tmp\n!keep/\n/out\na/b\n', 'p[1]/q*/');
    expect(rules.map((rule) => rule.rebased)).toEqual([
      'p\\[1]/q\\*/**/*.tmp',
      '!p\\[1]/q\\*/**/keep/',
      'p\\[1]/q\\*/out',
      'p\\[1]/q\\*/a/b',
    ]);
  });

  it('keeps a directory named like a comment or a negation literal', () => {
    expect(parseGitignore('x\n', '#d/')[0]?.rebased).toBe('\\#d/**/x');
    expect(parseGitignore('x\n', '!d/')[0]?.rebased).toBe('\\!d/**/x');
  });
});

describe('isLiteralSegment()', () => {
  it('is false for wildcards, classes and escapes', () => {
    expect(isLiteralSegment('src')).toBe(true);
    for (const segment of ['*.ts', 'a?', '[ab]', 'a\\*'])
      expect(isLiteralSegment(segment)).toBe(false);
  });
});

describe('mayMatchChildOf()', () => {
  const [anchored] = parseGitignore('src/gen/*.ts\n', '');
  const [globstar] = parseGitignore('src/**/x\n', '');
  const [wild] = parseGitignore('*/gen/a\n', '');

  it('rules out directories at the wrong depth or with a different literal segment', () => {
    if (!anchored) throw new Error('no rule');
    expect(mayMatchChildOf(anchored, '', 'src/gen/', false)).toBe(true);
    expect(mayMatchChildOf(anchored, '', 'src/', false)).toBe(false);
    expect(mayMatchChildOf(anchored, '', 'lib/gen/', false)).toBe(false);
    expect(mayMatchChildOf(anchored, '', 'SRC/gen/', true)).toBe(true);
  });

  it('stays conservative for ** and wildcard segments', () => {
    if (!globstar || !wild) throw new Error('no rule');
    expect(mayMatchChildOf(globstar, '', 'src/a/b/c/', false)).toBe(true);
    expect(mayMatchChildOf(globstar, '', 'lib/', false)).toBe(false);
    expect(mayMatchChildOf(wild, '', 'any/gen/', false)).toBe(true);
  });

  it('measures the directory relative to the rule file', () => {
    const [nested] = parseGitignore('gen/*.ts\n', 'pkg/');
    if (!nested) throw new Error('no rule');
    expect(mayMatchChildOf(nested, 'pkg/', 'pkg/gen/', false)).toBe(true);
    expect(mayMatchChildOf(nested, 'pkg/', 'pkg/', false)).toBe(false);
  });
});

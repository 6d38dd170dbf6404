import { describe, expect, it } from 'vitest';
import { compilePatterns, normalizePattern, normalizePatterns } from './patterns.js';

const compiled = (patterns: string[], ignoreCase = false) =>
  compilePatterns(normalizePatterns(patterns, '/root'), ignoreCase);

describe('normalizePattern()', () => {
  it('strips ./, collapses slashes and turns a trailing slash into /**', () => {
    expect(normalizePattern('./src//**/*.ts', '/root')).toEqual({
      negated: false,
      glob: 'src/**/*.ts',
    });
    expect(normalizePattern('!node_modules/', '/root')).toEqual({
      negated: true,
      glob: 'node_modules/**',
    });
    expect(normalizePattern('./', '/root')).toEqual({ negated: false, glob: '**' });
  });

  it('makes absolute patterns inside the root relative', () => {
    expect(normalizePattern('/root/src/*.ts', '/root').glob).toBe('src/*.ts');
  });

  it('rejects patterns leaving the root with FILES_PATH_ESCAPES_ROOT', () => {
    for (const pattern of ['../**', '/etc/**', '!/rootx/a', 'a/../../b']) {
      expect(() => normalizePattern(pattern, '/root')).toThrow(
        expect.objectContaining({ code: 'FILES_PATH_ESCAPES_ROOT' }),
      );
    }
  });

  it('rejects empty, bare-negation and non-string patterns with FILES_INVALID_PATTERN', () => {
    for (const pattern of ['', '!', 3 as unknown as string, 'a\0']) {
      expect(() => normalizePattern(pattern, '/root')).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_PATTERN' }),
      );
    }
  });
});

describe('compilePatterns()', () => {
  it('matches micromatch globs with dot files and applies negations to every match', () => {
    const patterns = compiled(['**/*.ts', 'docs/**', '!**/*.test.ts', '!docs/private/']);
    expect(patterns.matches('a/.b/c.ts')).toBe(true);
    expect(patterns.matches('a/c.test.ts')).toBe(false);
    expect(patterns.matches('docs/readme.md')).toBe(true);
    expect(patterns.matches('docs/private/x.md')).toBe(false);
    expect(patterns.matches('a/c.js')).toBe(false);
  });

  it('prunes directories a negation covers entirely and those outside every base', () => {
    const patterns = compiled(['src/**/*.ts', 'docs/*.md', '!**/node_modules/']);
    expect(patterns.mayDescend('src')).toBe(true);
    expect(patterns.mayDescend('src/a/b')).toBe(true);
    expect(patterns.mayDescend('src/a/node_modules')).toBe(false);
    expect(patterns.mayDescend('lib')).toBe(false);
    expect(patterns.mayDescend('docs')).toBe(true);
  });

  it('bounds the depth of globs without ** and keeps braces and classes conservative', () => {
    expect(compiled(['*.md']).mayDescend('docs')).toBe(false);
    expect(compiled(['a/*/c.ts']).mayDescend('a/b')).toBe(true);
    expect(compiled(['a/*/c.ts']).mayDescend('a/b/c')).toBe(false);
    expect(compiled(['{a,b/c}/*.ts']).mayDescend('b/c')).toBe(true);
    expect(compiled(['x[/]y']).mayDescend('x')).toBe(true);
  });

  it('reports an empty list when there is no positive pattern', () => {
    expect(compiled(['!a']).empty).toBe(true);
    expect(compiled([]).empty).toBe(true);
  });

  it('folds case when asked to', () => {
    expect(compiled(['SRC/**'], true).matches('src/a')).toBe(true);
    expect(compiled(['SRC/**'], true).mayDescend('src')).toBe(true);
    expect(compiled(['SRC/**']).matches('src/a')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { toRootRelative } from './paths.js';

describe('toRootRelative()', () => {
  it('accepts relative and absolute paths inside the root', () => {
    expect(toRootRelative('/r', 'a/b.ts')).toBe('a/b.ts');
    expect(toRootRelative('/r/', '/r/a/./b.ts')).toBe('a/b.ts');
    expect(toRootRelative('/r', 'a/../c')).toBe('c');
  });

  it('rejects paths outside the root with FILES_PATH_ESCAPES_ROOT', () => {
    for (const path of ['../x', '/etc/passwd', '/r2/a', 'a/../../x']) {
      expect(() => toRootRelative('/r', path)).toThrow(
        expect.objectContaining({ code: 'FILES_PATH_ESCAPES_ROOT' }),
      );
    }
  });

  it('rejects the root itself, empty paths and NUL with FILES_INVALID_PATH', () => {
    for (const path of ['', '.', '/r', 'a\0b']) {
      expect(() => toRootRelative('/r', path)).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_PATH' }),
      );
    }
  });
});

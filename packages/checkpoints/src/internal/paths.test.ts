import { describe, expect, it } from 'vitest';
import {
  assertRelativePath,
  compareCodePoints,
  forEachAncestor,
  isInGitDir,
  sortByBytes,
} from './paths.js';

describe('assertRelativePath()', () => {
  it('accepts clean relative paths, including spaces, unicode and backslashes', () => {
    for (const path of [
      'a',
      'a/b.txt',
      'with space/x',
      'ünï/😀',
      'back\\slash',
      '.hidden/.x',
      '...',
    ]) {
      expect(() => assertRelativePath(path)).not.toThrow();
    }
  });

  it('rejects absolute, dotted, empty-segment and NUL paths with CHECKPOINT_INVALID_PATH', () => {
    for (const path of ['', '/a', 'a/', 'a//b', './a', 'a/./b', '../a', 'a/..', 'a\0b']) {
      expect(() => assertRelativePath(path)).toThrow(
        expect.objectContaining({ code: 'CHECKPOINT_INVALID_PATH' }),
      );
    }
  });
});

describe('isInGitDir()', () => {
  it('matches a .git segment in any case and nothing else', () => {
    expect(
      ['.git', '.git/config', 'vendor/.git/HEAD', 'x/.GIT/y', 'a/.Git'].map(isInGitDir),
    ).toEqual([true, true, true, true, true]);
    expect(['.gitignore', 'a.git/b', 'git/x', '.github/workflows/ci.yml'].map(isInGitDir)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('sortByBytes()', () => {
  it('orders by UTF-8 bytes even around surrogate pairs', () => {
    const values = ['\uFF5E', '😀', 'a', 'Z', 'é'];
    const bytes = [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(sortByBytes([...values])).toEqual(bytes);
    expect(compareCodePoints('😀', '\uFF5E')).toBeGreaterThan(0);
  });
});

describe('forEachAncestor()', () => {
  it('visits parents nearest first and stops when asked', () => {
    const seen: string[] = [];
    forEachAncestor('a/b/c.txt', (dir) => {
      seen.push(dir);
      return true;
    });
    expect(seen).toEqual(['a/b', 'a', '']);
    const stopped: string[] = [];
    forEachAncestor('a/b/c.txt', (dir) => {
      stopped.push(dir);
      return dir !== 'a/b' ? undefined : false;
    });
    expect(stopped).toEqual(['a/b']);
  });
});

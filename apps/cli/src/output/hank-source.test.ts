import { describe, expect, it } from 'vitest';
import { describeHankSource } from './hank-source.js';

describe('describeHankSource()', () => {
  it('names a path, a git URL at its commit, and a bundle with its hash', () => {
    expect(describeHankSource({ kind: 'path', path: '/h/hank.json' })).toBe('/h/hank.json');
    const commit = '0123456789abcdef0123456789abcdef01234567';
    expect(
      describeHankSource({
        kind: 'git',
        url: 'https://h/r.git',
        ref: 'feature/x',
        commit,
        subdir: 'a/b',
      }),
    ).toBe('https://h/r.git#feature/x:a/b at commit 0123456789ab');
    expect(describeHankSource({ kind: 'git', url: 'https://h/r.git', commit, subdir: 'a' })).toBe(
      'https://h/r.git#:a at commit 0123456789ab',
    );
    expect(describeHankSource({ kind: 'git', url: 'https://h/r.git', commit })).toBe(
      'https://h/r.git at commit 0123456789ab',
    );
    expect(describeHankSource({ kind: 'bundle', path: 'x.hank', bundleHash: 'f'.repeat(64) })).toBe(
      `bundle x.hank (sha256 ${'f'.repeat(16)}…)`,
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  httpsEquivalent,
  isRemoteHankUrl,
  parseRemoteHankUrl,
  stripCredentials,
} from './parse-url.js';

describe('isRemoteHankUrl()', () => {
  it('knows https, http, ssh and scp-like URLs, and nothing else', () => {
    for (const url of [
      'https://github.com/o/r',
      'http://127.0.0.1:8080/r.git',
      'ssh://git@gitlab.com/o/r.git',
      'git@bitbucket.org:o/r.git',
    ]) {
      expect(isRemoteHankUrl(url)).toBe(true);
    }
    for (const path of ['hank.json', './my-hank', '/abs/dir', 'C:/x', 'data:with:colons', 'a@b']) {
      expect(isRemoteHankUrl(path)).toBe(false);
    }
  });
});

describe('parseRemoteHankUrl()', () => {
  it('reads a branch with slashes, then a subdir after the first colon', () => {
    expect(parseRemoteHankUrl('https://github.com/o/r.git#feature/x/y:hanks/one')).toEqual({
      cloneUrl: 'https://github.com/o/r.git',
      url: 'https://github.com/o/r.git',
      transport: 'https',
      ref: 'feature/x/y',
      subdir: 'hanks/one',
    });
  });

  it('reads a subdir without a ref, after the port and after the scp host', () => {
    expect(parseRemoteHankUrl('http://127.0.0.1:8080/r.git:sub/dir/')).toMatchObject({
      cloneUrl: 'http://127.0.0.1:8080/r.git',
      subdir: 'sub/dir',
    });
    expect(parseRemoteHankUrl('https://h/r.git#:sub')).toMatchObject({ subdir: 'sub' });
    expect(parseRemoteHankUrl('git@github.com:o/r.git:sub')).toEqual({
      cloneUrl: 'git@github.com:o/r.git',
      url: 'git@github.com:o/r.git',
      transport: 'ssh',
      subdir: 'sub',
    });
    expect(parseRemoteHankUrl('git@github.com:o/r.git#v1.2.0')).toMatchObject({ ref: 'v1.2.0' });
  });

  it('keeps the credentials for fetching and drops them from what is shown', () => {
    const spec = parseRemoteHankUrl('https://alice:t0ken@git.example.com/o/r.git#main');
    expect(spec.cloneUrl).toBe('https://alice:t0ken@git.example.com/o/r.git');
    expect(spec.url).toBe('https://git.example.com/o/r.git');
  });

  it('refuses a climbing or absolute subdir, a bad ref, and no repository path', () => {
    for (const text of [
      'https://h/r.git#main:../..',
      'https://h/r.git:a/../../b',
      'https://h/r.git#main:/etc',
      'https://h/r.git#main:a\\b',
      'https://h/r.git#-delete',
      'https://h/r.git#a..b',
      'https://h/r.git#x y',
      'https://h',
      'https://h/',
    ]) {
      expect(() => parseRemoteHankUrl(text), text).toThrow(
        expect.objectContaining({ code: 'REMOTE_INVALID_URL' }),
      );
    }
    try {
      parseRemoteHankUrl('https://alice:t0ken@h/r.git#main:../x');
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('t0ken');
      expect(JSON.stringify(error)).not.toContain('t0ken');
    }
  });
});

describe('stripCredentials()', () => {
  it('removes user:password and tokens, keeps an ssh user name', () => {
    expect(stripCredentials('https://u:p@h:443/o/r.git')).toBe('https://h:443/o/r.git');
    expect(stripCredentials('http://token@h/r')).toBe('http://h/r');
    expect(stripCredentials('ssh://git@h/r')).toBe('ssh://git@h/r');
    expect(stripCredentials('ssh://git:pw@h/r')).toBe('ssh://h/r');
    expect(stripCredentials('https://h/o/r.git#main')).toBe('https://h/o/r.git#main');
  });
});

describe('httpsEquivalent()', () => {
  it('maps scp-like and ssh:// URLs to https', () => {
    expect(httpsEquivalent('git@github.com:o/r.git')).toBe('https://github.com/o/r.git');
    expect(httpsEquivalent('ssh://git@gitlab.com:2222/o/r.git')).toBe('https://gitlab.com/o/r.git');
  });
});

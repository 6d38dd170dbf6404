import { describe, expect, it } from 'vitest';
import { postgresUrlOf } from './postgres-options.js';
import { checkServerUrl, maskedUrl } from './server-url.js';

describe('server URLs of the fleet flags', () => {
  it('masks a password in messages, parsed or not', () => {
    expect(maskedUrl('postgres://hw:s3cret@db:5432/hankweave')).toBe(
      'postgres://hw:***@db:5432/hankweave',
    );
    expect(maskedUrl('redis://:pw@redis:6379/2')).toBe('redis://:***@redis:6379/2');
    expect(maskedUrl('postgres://db/x?note=a:b@c')).toBe('postgres://db/x?note=a:b@c');
    expect(maskedUrl('redis://redis:6379')).toBe('redis://redis:6379');
  });

  it('refuses what does not parse, or another scheme, naming the flag and never the password', () => {
    const refused = (url: string) => {
      try {
        checkServerUrl('--redis', url, ['redis:', 'rediss:'], 'Write it as redis://host:6379.');
      } catch (error) {
        return error as Error & { code: string; hint: string };
      }
      throw new Error(`${url} was accepted`);
    };
    expect(refused('redis//nohost')).toMatchObject({
      code: 'CLI_USAGE',
      message: '--redis: "redis//nohost" is not a URL',
      hint: 'Write it as redis://host:6379.',
    });
    const http = refused('http://u:topsecret@host:6379');
    expect(http.message).toBe(
      '--redis: "http://u:***@host:6379" is not a redis:// or rediss:// URL',
    );
    expect(checkServerUrl('--redis', 'rediss://h:6380', ['redis:', 'rediss:'], '')).toBe(
      'rediss://h:6380',
    );
  });

  it('takes --postgres, else the variable; nothing is no database', () => {
    const env = { HANKWEAVE_POSTGRES_URL: 'postgresql://db/fleet' };
    expect(postgresUrlOf({ postgres: 'postgres://a/b' }, env)).toBe('postgres://a/b');
    expect(postgresUrlOf({}, env)).toBe('postgresql://db/fleet');
    expect(postgresUrlOf({}, {})).toBeUndefined();
    expect(() => postgresUrlOf({ postgres: 'mysql://x' }, {})).toThrow(
      '--postgres: "mysql://x" is not a postgres:// or postgresql:// URL',
    );
  });
});

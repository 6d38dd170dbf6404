import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  allowedHosts,
  cookieName,
  cookieValue,
  isLoopback,
  newToken,
  presentedToken,
  sameOriginAction,
  tokenMatches,
} from './security.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('isLoopback()', () => {
  it('accepts loopback names and addresses only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST'])
      expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.2', '::', 'example.com', '127.0.0.1.evil.com'])
      expect(isLoopback(host)).toBe(false);
  });
});

describe('allowedHosts()', () => {
  it('names the loopback hosts and the bound one, with the port', () => {
    expect([...allowedHosts('127.0.0.1', 4000)].sort()).toEqual([
      '127.0.0.1:4000',
      '[::1]:4000',
      'localhost:4000',
    ]);
    expect(allowedHosts('::1', 80).has('[::1]:80')).toBe(true);
    expect(allowedHosts('127.0.0.1', 4000).has('evil.com:4000')).toBe(false);
  });
});

describe('tokens and cookies', () => {
  it('makes distinct URL-safe tokens and compares them exactly', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });

  it('reads the per-port cookie or a bearer header', () => {
    expect(cookieValue('a=1; hankweave_ui_80=abc=; b=2', 'hankweave_ui_80')).toBe('abc=');
    expect(presentedToken(request({ cookie: `${cookieName(80)}=t1` }), 80)).toBe('t1');
    expect(presentedToken(request({ cookie: `${cookieName(81)}=t1` }), 80)).toBeUndefined();
    expect(presentedToken(request({ authorization: 'Bearer t2' }), 80)).toBe('t2');
  });
});

describe('sameOriginAction()', () => {
  const host = '127.0.0.1:4000';
  it('accepts our own page: the action header and our origin', () => {
    expect(
      sameOriginAction(
        request({
          host,
          origin: `http://${host}`,
          'x-hankweave-action': '1',
          'sec-fetch-site': 'same-origin',
        }),
      ),
    ).toBeUndefined();
  });

  it('refuses another origin, a missing origin, a missing header, a cross-site fetch', () => {
    expect(
      sameOriginAction(request({ host, origin: 'http://evil.com', 'x-hankweave-action': '1' })),
    ).toMatch(/Origin/);
    expect(sameOriginAction(request({ host, 'x-hankweave-action': '1' }))).toMatch(/none/);
    expect(sameOriginAction(request({ host, origin: `http://${host}` }))).toMatch(
      /x-hankweave-action/,
    );
    expect(
      sameOriginAction(
        request({
          host,
          origin: `http://${host}`,
          'x-hankweave-action': '1',
          'sec-fetch-site': 'cross-site',
        }),
      ),
    ).toMatch(/cross-site/);
  });
});

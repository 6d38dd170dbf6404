import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ACTION_HEADER } from '../../src/api/constants.js';

/** Sent with every answer: nothing from elsewhere, no framing, no sniffing, no referrer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // Other origins may not load our scripts or JSON as subresources, nor keep a window handle.
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

/** A fresh per-server secret: 32 random bytes, base64url (URL- and cookie-safe). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Compares secrets in constant time (hashed first, so lengths do not leak either). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** True for the loopback names and addresses (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** `host:port` as a Host header names it (IPv6 in brackets). */
const hostPort = (host: string, port: number): string =>
  `${isIP(host) === 6 ? `[${host}]` : host.toLowerCase()}:${port}`;

/**
 * The Host headers this server answers: the loopback names and the bound address, with its port.
 * Anything else is refused before any data (DNS rebinding: a page of another site whose name
 * now resolves to 127.0.0.1 still sends its own name).
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '::1', boundHost].map((host) => hostPort(host, port)));
}

/** The auth cookie's name: one per port, since browsers share cookies across ports of a host. */
export const cookieName = (port: number): string => `hankweave_ui_${port}`;

/** `Set-Cookie` for a browser that brought the right token: script-proof and same-site only. */
export const sessionCookie = (port: number, token: string): string =>
  `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;

/** One cookie's value from a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** The token a request carries: the auth cookie or `Authorization: Bearer` (scripts, tests). */
export function presentedToken(request: IncomingMessage, port: number): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return cookieValue(request.headers.cookie, cookieName(port));
}

/**
 * Whether a state-changing request comes from our own page: it must name the action in
 * `x-hankweave-action` (a header no form or simple request can set) and carry an `Origin` equal
 * to the URL it was sent to; a browser's `Sec-Fetch-Site`, when sent, must say same-origin.
 */
export function sameOriginAction(request: IncomingMessage): string | undefined {
  if (request.headers[ACTION_HEADER] === undefined) return `the ${ACTION_HEADER} header is missing`;
  const origin = request.headers.origin;
  if (origin !== `http://${request.headers.host}`)
    return `the Origin ${origin ?? '(none)'} is not this server`;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site is ${site}`;
  return undefined;
}

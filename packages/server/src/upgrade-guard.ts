import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What the upgrade check decided. `authenticated` is false when no token was presented yet. */
export type UpgradeDecision =
  | { ok: true; authenticated: boolean }
  | { ok: false; status: 401 | 403 | 503; reason: string };

/** Compares secrets in constant time (hashing first so lengths do not leak either). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The token presented at the upgrade: `Authorization: Bearer <token>`, or `?token=` for clients
 * that cannot set headers. Undefined when neither is there (the handshake may still carry it).
 */
export function tokenOfRequest(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  return query ?? undefined;
}

/**
 * Checks an upgrade request before any WebSocket exists, so a refused client costs one HTTP
 * answer: a browser `Origin` not on the allow-list (403; a page must never drive a local
 * runtime, and every browser sends `Origin` on WebSocket requests, so this also stops DNS
 * rebinding), a wrong token (401), too many clients (503).
 */
export function checkUpgrade(
  request: IncomingMessage,
  policy: {
    allowedOrigins: readonly string[];
    token: string;
    clientCount: number;
    maxClients: number;
  },
): UpgradeDecision {
  const origin = request.headers.origin;
  if (origin !== undefined && !policy.allowedOrigins.includes(origin)) {
    return { ok: false, status: 403, reason: `Origin ${origin} is not allowed` };
  }
  const presented = tokenOfRequest(request);
  if (presented !== undefined && !tokenMatches(presented, policy.token)) {
    return { ok: false, status: 401, reason: 'Wrong token' };
  }
  if (policy.clientCount >= policy.maxClients) {
    return { ok: false, status: 503, reason: 'Too many clients' };
  }
  return { ok: true, authenticated: presented !== undefined };
}

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';

type Env = Readonly<Record<string, string | undefined>>;

/** The Messages API the agent calls when nothing points it elsewhere. */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** What a probe found: reachable, or the error code and a phrase a person understands. */
export type ProbeResult =
  | { ok: true; target: string }
  | { ok: false; target: string; code: string; reason: string };

/** True for `localhost`, 127.0.0.0/8 and ::1: a local server (a scripted model, a proxy). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

const REASONS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS not answering)',
  ECONNREFUSED: 'nothing is listening there',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  TIMEOUT: 'no answer in time',
};

function failure(target: string, error: unknown): ProbeResult {
  const code = (error as { code?: unknown }).code;
  const name = typeof code === 'string' ? code : 'ERROR';
  const reason = REASONS[name] ?? (error as Error).message ?? String(error);
  return { ok: false, target, code: name, reason };
}

/** The proxy the agent would use for `url` (`HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY`, `NO_PROXY`). */
export function proxyFor(url: URL, env: Env): URL | undefined {
  const pick = (...names: string[]) =>
    names.map((name) => env[name]).find((value) => value !== undefined && value.trim() !== '');
  const noProxy = pick('NO_PROXY', 'no_proxy') ?? '';
  const host = url.hostname.toLowerCase();
  for (const entry of noProxy.split(/[\s,]+/).filter(Boolean)) {
    const suffix = entry.replace(/^\*?\.?/, '.').toLowerCase();
    if (entry === '*' || host === suffix.slice(1) || host.endsWith(suffix)) return undefined;
  }
  const raw =
    url.protocol === 'https:'
      ? pick('HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy')
      : pick('HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy');
  if (raw === undefined) return undefined;
  try {
    return new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

const portOf = (url: URL): number =>
  url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

/**
 * Resolves the host and opens a TCP connection to it (no TLS, no HTTP): the cheapest proof the
 * network path exists. Never rejects.
 */
export function probeTcp(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  const target = `${host}:${port}`;
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const done = (result: ProbeResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(failure(target, { code: 'TIMEOUT' })), timeoutMs);
    socket.once('connect', () => done({ ok: true, target }));
    socket.once('error', (error) => done(failure(target, error)));
  });
}

/** A `HEAD` of `url`: any HTTP answer (even 404) proves the server answers. Never rejects. */
export function probeHttp(url: URL, timeoutMs: number): Promise<ProbeResult> {
  const target = `${url.hostname}:${portOf(url)}`;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(url, { method: 'HEAD', agent: false });
    const done = (result: ProbeResult) => {
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(failure(target, { code: 'TIMEOUT' })), timeoutMs);
    request.once('response', (response) => {
      response.resume();
      done({ ok: true, target });
    });
    request.once('error', (error) => done(failure(target, error)));
    request.end();
  });
}

/**
 * Whether the agent could reach the API at `baseUrl`: a local server must answer an HTTP request
 * (a scripted model does, at once); a remote one, or the proxy in front of it, must accept a TCP
 * connection. Either within `timeoutMs`.
 */
export async function probeEndpoint(
  baseUrl: URL,
  env: Env,
  timeoutMs: number,
): Promise<ProbeResult & { proxy?: string }> {
  if (isLoopbackHost(baseUrl.hostname)) return probeHttp(baseUrl, timeoutMs);
  const proxy = proxyFor(baseUrl, env);
  if (proxy === undefined) return probeTcp(baseUrl.hostname, portOf(baseUrl), timeoutMs);
  const result = await probeTcp(proxy.hostname, portOf(proxy), timeoutMs);
  return { ...result, proxy: `${proxy.hostname}:${portOf(proxy)}` };
}

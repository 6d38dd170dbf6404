import { randomBytes } from 'node:crypto';
import { ServerError } from './errors.js';

/** Options of {@link startWebSocketServer}. Every default is the secure one. */
export interface WebSocketServerOptions {
  /** The port; 0 (default) lets the OS choose. The real one is in the result and `runtime.lock`. */
  port?: number;
  /** The interface to bind; default `127.0.0.1`. Anything but loopback needs `allowRemote`. */
  host?: string;
  /** Confirms a non-loopback `host` (a warning is logged anyway). */
  allowRemote?: boolean;
  /**
   * Browser origins allowed to connect (exact `scheme://host[:port]` strings). Default none: a
   * request with an `Origin` header, which every browser sends, is refused with 403.
   */
  allowedOrigins?: string[];
  /** The per-execution secret clients must present; default 32 random bytes, base64url. */
  token?: string;
  /** Largest accepted message in bytes; bigger ones close the connection with 1009. Default 1 MB. */
  maxMessageBytes?: number;
  /** Per-client token bucket. Default 100 messages per second, bursts of 200. */
  rateLimit?: { messagesPerSecond: number; burst: number };
  /**
   * How many bytes may wait in one client's send buffer. A client past it is closed with 4008 and
   * gets nothing more, so a stalled reader never holds memory or time of the runtime. Default 8 MB.
   */
  maxBufferedBytes?: number;
  /** Upper bound of one `history.batch` message (one bigger event still gets its own). 256 KB. */
  historyBatchBytes?: number;
  /** Connections allowed at once; more are refused with 503. Default 64. */
  maxClients?: number;
  /** A connection without a handshake by then is closed with 4002. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** After a 4008 close, how long the buffered data may take to drain before the socket is cut. 5 s. */
  closeGraceMs?: number;
  /** Reported in `server.ready`. Default `unknown`. */
  serverVersion?: string;
  /** Close the server once the runtime has finished (default true). */
  closeWhenFinished?: boolean;
}

/** The options with every default applied. */
export type ResolvedServerOptions = Required<Omit<WebSocketServerOptions, 'allowRemote'>>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** True when `host` only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Applies the defaults and checks the options.
 * @throws {ServerError} SERVER_INVALID_OPTION (details.option) for a remote host without
 *   `allowRemote`, an empty token or a non-positive limit.
 */
export function resolveServerOptions(options: WebSocketServerOptions): ResolvedServerOptions {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && options.allowRemote !== true) {
    throw optionError(
      'host',
      `Binding to ${host} exposes the runtime beyond this machine; pass allowRemote: true`,
    );
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (token.length === 0) throw optionError('token', 'The token must not be empty');
  const resolved: ResolvedServerOptions = {
    port: options.port ?? 0,
    host,
    allowedOrigins: options.allowedOrigins ?? [],
    token,
    maxMessageBytes: options.maxMessageBytes ?? 1024 * 1024,
    rateLimit: options.rateLimit ?? { messagesPerSecond: 100, burst: 200 },
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024 * 1024,
    historyBatchBytes: options.historyBatchBytes ?? 256 * 1024,
    maxClients: options.maxClients ?? 64,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    closeGraceMs: options.closeGraceMs ?? 5_000,
    serverVersion: options.serverVersion ?? 'unknown',
    closeWhenFinished: options.closeWhenFinished ?? true,
  };
  for (const [option, value] of [
    ['maxMessageBytes', resolved.maxMessageBytes],
    ['maxBufferedBytes', resolved.maxBufferedBytes],
    ['historyBatchBytes', resolved.historyBatchBytes],
    ['maxClients', resolved.maxClients],
    ['rateLimit.messagesPerSecond', resolved.rateLimit.messagesPerSecond],
    ['rateLimit.burst', resolved.rateLimit.burst],
  ] as const) {
    if (!(value > 0)) throw optionError(option, `${option} must be positive`);
  }
  return resolved;
}

function optionError(option: string, message: string): ServerError {
  return new ServerError('SERVER_INVALID_OPTION', message, { details: { option } });
}

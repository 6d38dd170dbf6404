/**
 * WebSocket close codes the server uses. 1000–1015 are RFC 6455's; 4000–4999 are ours (the range
 * RFC 6455 leaves to applications).
 */
export const CLOSE_CODES = {
  /** The client closed normally. */
  NORMAL: 1000,
  /** The server is closing: `close()` was called or the runtime finished. */
  GOING_AWAY: 1001,
  /** A message was larger than `maxMessageBytes` (sent by `ws` itself). */
  MESSAGE_TOO_BIG: 1009,
  /** The handshake carried no token, or a wrong one (and none was given at the upgrade). */
  UNAUTHORIZED: 4001,
  /** No handshake arrived within `handshakeTimeoutMs`. */
  HANDSHAKE_TIMEOUT: 4002,
  /**
   * The client read too slowly: its send buffer passed `maxBufferedBytes`. Events after that point
   * were not sent; reconnect and send `history.sync` to catch up.
   */
  TOO_FAR_BEHIND: 4008,
} as const;

/**
 * The `code` of the `error` events the server itself sends (to one client, never journaled).
 * Errors from the runtime keep their `RUNTIME_*` code, except `RUNTIME_ROLLBACK_IN_PROGRESS`,
 * which is sent as the protocol's `ROLLBACK_IN_PROGRESS` (reference §3.1).
 */
export const SERVER_ERROR_CODES = [
  /** A command arrived before a successful handshake. */
  'HANDSHAKE_REQUIRED',
  /** The handshake did not match its schema (mode, fields). */
  'HANDSHAKE_INVALID',
  /** A second handshake on a connection that already has one. */
  'ALREADY_HANDSHAKEN',
  /** Missing or wrong token; the connection is then closed with 4001. */
  'UNAUTHORIZED',
  /** The message is not JSON. */
  'INVALID_JSON',
  /** The message is JSON but not `{type: string, id?: string, data?}`. */
  'INVALID_COMMAND',
  /** `type` is not a command of the protocol. */
  'UNKNOWN_COMMAND',
  /** A read-only client sent a command that changes something (shutdown included). */
  'INSUFFICIENT_PERMISSIONS',
  /** A command that changes something arrived during a rollback. */
  'ROLLBACK_IN_PROGRESS',
  /** The client sent faster than its rate limit, or has too many commands waiting. */
  'RATE_LIMITED',
] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/**
 * WebSocket close codes the server uses. 1000–1015 are RFC 6455's; 4000–4999 are ours (the range
 * RFC 6455 leaves to applications).
 */
export const CLOSE_CODES = {
  /** The client closed normally. */
  NORMAL: 1000,
  /** The server is closing: `close()` was called or the runtime finished. */
  GOING_AWAY: 1001,
  /**
   * A frame broke RFC 6455: unmasked, a reserved opcode or RSV bit, a continuation without a
   * start, a control frame over 125 bytes (sent by `ws` itself).
   */
  PROTOCOL_ERROR: 1002,
  /** A text frame that is not valid UTF-8 (sent by `ws` itself). */
  INVALID_PAYLOAD: 1007,
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

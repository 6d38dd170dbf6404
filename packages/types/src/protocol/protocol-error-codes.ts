/**
 * The `code` of the `error` events a hankweave WebSocket server sends on its own account (to one
 * client, never journaled). Errors of a command keep the code of the package that raised them
 * (`RUNTIME_*`, `STATE_*`, ...), except `RUNTIME_ROLLBACK_IN_PROGRESS`, which is sent as the
 * protocol's `ROLLBACK_IN_PROGRESS` (reference §3.1).
 */
export const PROTOCOL_ERROR_CODES = [
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
  /** The message is JSON but not an object with a string `type`, or a command without a string `id`. */
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

/** One of {@link PROTOCOL_ERROR_CODES}. */
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

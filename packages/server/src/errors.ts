import { defineErrorClass } from '@hankweave/types';

/**
 * Every code a {@link ServerError} can carry; the README's Errors table lists them all. (They were
 * `RUNTIME_INVALID_OPTION` and `RUNTIME_LISTEN_FAILED` while the server lived in the runtime.)
 */
export const SERVER_ERROR_CODES = [
  /** An option of `startWebSocketServer` is unsafe or out of range; `details.option`. */
  'SERVER_INVALID_OPTION',
  /** The server could not listen (port in use, permission); `details.port`. */
  'SERVER_LISTEN_FAILED',
] as const;

/** One of {@link SERVER_ERROR_CODES}. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** Every error the WebSocket server raises itself (what a command throws reaches the client). */
export class ServerError extends defineErrorClass('ServerError', SERVER_ERROR_CODES) {}

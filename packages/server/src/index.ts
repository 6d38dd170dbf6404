// Public surface of @hankweave/server: the WebSocket server over a runtime port. The client has its
// own entry, `@hankweave/server/client`, which does not load the runtime.

export { CLOSE_CODES } from './close-codes.js';
export type { ClientInfo } from './connection.js';
export { SERVER_ERROR_CODES, ServerError, type ServerErrorCode } from './errors.js';
export type { WebSocketServerOptions } from './server-options.js';
export { type HankweaveServer, startWebSocketServer } from './websocket-server.js';

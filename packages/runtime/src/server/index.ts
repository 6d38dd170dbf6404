// The WebSocket server and its typed client; re-exported by the package's public index.

export {
  type CloseInfo,
  type ConnectOptions,
  connectHankweave,
  type HandshakeResult,
  type HankweaveClient,
} from './client.js';
export type { ClientInfo } from './client-session.js';
export { CLOSE_CODES, SERVER_ERROR_CODES, type ServerErrorCode } from './codes.js';
export type { WebSocketServerOptions } from './server-options.js';
export { type HankweaveServer, startWebSocketServer } from './websocket-server.js';

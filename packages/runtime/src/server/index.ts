// The WebSocket server and its typed client; the public index re-exports the client side.

export {
  type CloseInfo,
  type ConnectOptions,
  connectHankweave,
  type HandshakeResult,
  type HankweaveClient,
} from './client.js';
export type { ClientInfo } from './client-session.js';
export { CLOSE_CODES } from './codes.js';
export type { WebSocketServerOptions } from './server-options.js';
export { type HankweaveServer, startWebSocketServer } from './websocket-server.js';

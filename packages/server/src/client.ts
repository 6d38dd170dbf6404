// ./client entry: the typed WebSocket client of a hankweave runtime. It imports only `ws` and
// types, so a process that only watches or drives a runtime (the CLI's `--attach`, the dashboard
// server) never loads the orchestrator.

export { CLOSE_CODES } from './close-codes.js';
export {
  type ClientCommandInput,
  type CloseInfo,
  type ConnectOptions,
  connectHankweave,
  type HandshakeResult,
  type HankweaveClient,
} from './connect-hankweave.js';

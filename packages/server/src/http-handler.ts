import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Answers every plain HTTP request (reference §3.1): 400 with a JSON body pointing at the
 * WebSocket endpoint. Unlike the original, no CORS headers: no web page needs to read this, and
 * a permissive `Access-Control-Allow-Origin` would only help pages probe for local runtimes.
 */
export function createHttpHandler(websocketUrl: () => string) {
  return (_request: IncomingMessage, response: ServerResponse): void => {
    const body = JSON.stringify({
      error: 'HTTP API not available',
      message: 'This server only speaks WebSocket: connect, then send a handshake first.',
      websocket: websocketUrl(),
      help: 'Send {"type":"handshake","data":{"mode":"readonly","token":"<token from .hankweave/runtime.lock>"}} as the first message.',
    });
    response.writeHead(400, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.end(body);
  };
}

import { createServer, type IncomingMessage, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createWebSocketLogWriter } from '@hankweave/journal';
import type { RuntimePort } from '@hankweave/runtime';
import type { EventData, HankweaveEvent } from '@hankweave/types';
import { WebSocketServer } from 'ws';
import { CLOSE_CODES } from './close-codes.js';
import { handleCommand } from './command-handler.js';
import { type ClientInfo, Connection, type ConnectionHost } from './connection.js';
import { ServerError } from './errors.js';
import { performHandshake } from './handshake.js';
import { createHttpHandler } from './http-handler.js';
import type { ServerMessage } from './server-message.js';
import { isLoopback, resolveServerOptions, type WebSocketServerOptions } from './server-options.js';
import { checkUpgrade } from './upgrade-guard.js';
import { targetedEvent } from './wire.js';

/** A running WebSocket server (see README.md in this folder). */
export interface HankweaveServer {
  /** The port it listens on (the OS's choice when 0 was asked). */
  readonly port: number;
  readonly host: string;
  /** `ws://host:port/ws` (any path is accepted). */
  readonly url: string;
  /** The token clients must present; also in `runtime.lock`. */
  readonly token: string;
  /** The connected clients. */
  clients(): ClientInfo[];
  /**
   * Tells every handshaken client (an `info` event), closes every connection (1001) and stops
   * listening. Idempotent.
   */
  close(): Promise<void>;
}

/** How long `close()` lets clients answer the close frame before cutting them. */
const CLOSE_WAIT_MS = 1000;

/**
 * Serves the WebSocket protocol (reference §3) for a started runtime (any {@link RuntimePort}: a
 * `Runtime` from `createRuntime`, or a fake in tests): journaled events go to every handshaken
 * client, commands go through `runtime.command()`, and `runtime.lock` gets the port, host and
 * token. Every message in and out is logged to `.hankweave/logs/websocket.log`.
 *
 * @throws {RuntimeError} RUNTIME_NOT_STARTED (from the port) before `runtime.start()`;
 *   {ServerError} SERVER_INVALID_OPTION (with `details.option`) for unsafe options;
 *   SERVER_LISTEN_FAILED when the port cannot be bound.
 */
export async function startWebSocketServer(
  runtime: RuntimePort,
  options: WebSocketServerOptions = {},
): Promise<HankweaveServer> {
  const resolved = resolveServerOptions(options);
  // Read first: it throws RUNTIME_NOT_STARTED until the runtime has opened its execution.
  const layout = runtime.layout;
  if (!isLoopback(resolved.host)) {
    runtime.log.warn(
      `The WebSocket server binds to ${resolved.host}: anyone who can reach it and knows the token can drive this execution`,
    );
  }
  const writer = await createWebSocketLogWriter({ path: layout.websocketLog });
  let logOpen = true;
  const log = (direction: 'in' | 'out', message: unknown, raw?: string) => {
    if (!logOpen) return;
    const write = direction === 'in' ? writer.logIn.bind(writer) : writer.logOut.bind(writer);
    try {
      write(message);
    } catch {
      // A debugging log must never break the protocol. A message JSON cannot serialise again
      // (nested deeper than the stack) is noted by its size, never dropped silently.
      try {
        write({
          unloggable: 'too deeply nested to serialise',
          ...(raw !== undefined ? { bytes: Buffer.byteLength(raw) } : {}),
        });
      } catch {
        // The log is closed or failing: nothing more to do.
      }
    }
  };

  const connections = new Set<Connection>();
  let url = '';
  let port = 0;
  const live = () => [...connections].filter((connection) => connection.info.handshaken);
  const host: ConnectionHost = {
    runtime,
    options: resolved,
    logIn: (message, raw) => log('in', message, raw),
    logOut: (message) => log('out', message),
    serverReady: (): EventData<'server.ready'> => ({
      serverVersion: resolved.serverVersion,
      executionPath: layout.executionDir,
      agentRootPath: layout.agentRoot,
      dataPath: runtime.dataPath,
      port,
      ...(runtime.outputDirectory ? { outputDirectory: runtime.outputDirectory } : {}),
    }),
    sendToAll: (message: ServerMessage) => {
      for (const connection of live()) connection.send(message);
    },
    onClose: (connection) => connections.delete(connection),
    handshake: performHandshake,
    command: handleCommand,
  };

  const http = createServer(createHttpHandler(() => url));
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: resolved.maxMessageBytes,
    // Compression costs CPU per client and opens the door to decompression bombs.
    perMessageDeflate: false,
    clientTracking: false,
  });
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const decision = checkUpgrade(request, {
      allowedOrigins: resolved.allowedOrigins,
      token: resolved.token,
      clientCount: connections.size,
      maxClients: resolved.maxClients,
    });
    if (!decision.ok) {
      runtime.log.warn(`WebSocket upgrade refused (${decision.status}): ${decision.reason}`);
      refuseUpgrade(socket, decision.status, decision.reason);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      connections.add(
        new Connection(ws, host, decision.authenticated, request.socket.remoteAddress),
      );
    });
  });
  http.on('clientError', (_error, socket) => socket.destroy());

  try {
    await new Promise<void>((done, fail) => {
      http.once('error', fail);
      http.listen(resolved.port, resolved.host, () => {
        http.off('error', fail);
        done();
      });
    });
  } catch (error) {
    await writer.close().catch(() => undefined);
    throw new ServerError(
      'SERVER_LISTEN_FAILED',
      `Cannot listen on ${resolved.host}:${resolved.port}: ${(error as Error).message}; choose another port, or leave it out for a free one`,
      { cause: error, details: { option: 'port', port: resolved.port, host: resolved.host } },
    );
  }
  port = (http.address() as AddressInfo).port;
  url = `ws://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}/ws`;

  const unsubscribe = runtime.on((event: HankweaveEvent) => {
    const receivers = [...connections].filter((connection) => connection.info.handshaken);
    if (receivers.length === 0) return;
    // Serialised once for all clients; each send only queues bytes, so the runtime never waits.
    const payload = Buffer.from(JSON.stringify(event));
    log('out', event);
    for (const connection of receivers) connection.deliver(event, payload);
  });

  let closing: Promise<void> | undefined;
  /**
   * Closes the server. `notice`, when given, goes to every live client as an `info` event right
   * before its close frame (a graceful end, reference §5.8: clients are told, then closed).
   */
  const closeWith = (notice: string | undefined): Promise<void> => {
    closing ??= (async () => {
      unsubscribe();
      const open = [...connections];
      if (notice !== undefined) {
        // Targeted, not journaled: the journal is closed by now, and the notice is about this
        // connection. A client still in its handshake has no `handshake.response` yet, so none.
        const event = targetedEvent('info', { message: notice });
        for (const connection of open) if (connection.state === 'live') connection.send(event);
      }
      for (const connection of open) connection.close(CLOSE_CODES.GOING_AWAY, 'Server closing');
      const deadline = Date.now() + CLOSE_WAIT_MS;
      while (connections.size > 0 && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 10));
      }
      for (const connection of connections) connection.terminate();
      wss.close();
      const stopped = new Promise<void>((done) => http.close(() => done()));
      http.closeAllConnections();
      await stopped;
      logOpen = false;
      await writer.close().catch(() => undefined);
    })();
    return closing;
  };
  const close = (): Promise<void> => closeWith(shutdownNotice(undefined));

  await runtime.updateLock({ port, host: resolved.host, token: resolved.token });
  runtime.log.info(`WebSocket server listening on ${url}`);
  if (resolved.closeWhenFinished)
    void runtime.finished.then((exit) =>
      // A forced end sends nothing more, as the original's forceShutdown: it closes at once.
      closeWith(exit.reason === 'force' ? undefined : shutdownNotice(exit.reason)),
    );

  return {
    port,
    host: resolved.host,
    url,
    token: resolved.token,
    clients: () => [...connections].map((connection) => connection.info),
    close,
  };
}

/** The `info` message of a graceful close, with the runtime's reason when it has finished. */
function shutdownNotice(reason: string | undefined): string {
  return reason === undefined
    ? 'Server shutting down: the connection closes now.'
    : `Server shutting down (${reason}): the connection closes now.`;
}

/** Answers a refused upgrade with a plain HTTP status, before any WebSocket exists. */
function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const body = JSON.stringify({ error: reason });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

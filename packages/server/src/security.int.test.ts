import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { rawUpgrade, serverFrames } from '../test/raw-socket.js';
import {
  codeOf,
  type FakeWorld,
  type ServedWorld,
  startFakeWorld,
  startServedWorld,
} from '../test/server-world.js';
import { CLOSE_CODES } from './close-codes.js';
import { connectHankweave } from './connect-hankweave.js';
import { startWebSocketServer } from './websocket-server.js';

const worlds: FakeWorld[] = [];
async function served(...args: Parameters<typeof startServedWorld>): Promise<ServedWorld> {
  const world = await startServedWorld(...args);
  worlds.push(world);
  return world;
}
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.dispose()));
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error & { status?: number; code?: string }) => error,
  );

describe('WebSocket server security', () => {
  it('refuses a handshake without a token with UNAUTHORIZED and closes with 4001', async () => {
    const world = await served();
    const error = await refusal(connectHankweave(world.server.url, { mode: 'readandwrite' }));
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
    const raw = await rawUpgrade(world.server.port, {});
    expect(raw.response).toMatch(/^HTTP\/1\.1 101/);
    raw.socket.destroy();
    expect(world.runtime.phase).toBe('idle');
  });

  it('refuses a wrong token at the upgrade (401) and in the handshake (4001)', async () => {
    const world = await served();
    const atUpgrade = await refusal(connectHankweave(world.server.url, { token: 'wrong' }));
    expect(atUpgrade).toMatchObject({ status: 401 });
    const inHandshake = await refusal(
      connectHankweave(world.server.url, { token: 'wrong', tokenIn: 'handshake' }),
    );
    expect(inHandshake).toMatchObject({ code: 'UNAUTHORIZED' });
    const viaQuery = await refusal(connectHankweave(`${world.server.url}?token=wrong`));
    expect(viaQuery).toMatchObject({ status: 401 });
  });

  it('accepts the token in the header, the query or the handshake', async () => {
    const world = await served();
    const { token, url } = world.server;
    for (const client of [
      await connectHankweave(url, { token }),
      await connectHankweave(url, { token, tokenIn: 'handshake' }),
      await connectHankweave(`${url}?token=${encodeURIComponent(token)}`),
    ]) {
      expect(await client.send({ type: 'ping' })).toBeUndefined();
      await client.close();
    }
    // The handshake's token never reaches websocket.log.
    await world.server.close();
    const log = readFileSync(world.runtime.layout.websocketLog, 'utf8');
    expect(log).not.toContain(token);
    expect(log).toContain('[redacted]');
  });

  it('closes a client that sends nothing within the handshake timeout with 4002', async () => {
    const world = await served({}, { handshakeTimeoutMs: 100, closeGraceMs: 200 });
    const raw = await rawUpgrade(world.server.port, {
      authorization: `Bearer ${world.server.token}`,
    });
    const ended = new Promise<Buffer>((resolve) => {
      let data = raw.rest;
      raw.socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
      });
      raw.socket.on('close', () => resolve(data));
    });
    const frames = serverFrames(await ended);
    expect(frames.at(-1)?.closeCode).toBe(CLOSE_CODES.HANDSHAKE_TIMEOUT);
  });

  it('refuses a browser Origin that is not allowed with 403, and accepts an allowed one', async () => {
    const world = await served({}, { allowedOrigins: ['http://localhost:5173'] });
    const { token, url } = world.server;
    const foreign = await refusal(
      connectHankweave(url, { token, headers: { origin: 'http://evil.example' } }),
    );
    expect(foreign).toMatchObject({ status: 403 });
    // Even without a token: the origin check comes first.
    expect(
      await refusal(connectHankweave(url, { headers: { origin: 'http://127.0.0.1:1234' } })),
    ).toMatchObject({ status: 403 });
    const allowed = await connectHankweave(url, {
      token,
      headers: { origin: 'http://localhost:5173' },
    });
    expect(await allowed.send({ type: 'ping' })).toBeUndefined();
  });

  it('refuses browser origins by default', async () => {
    const world = await served();
    const { token, url } = world.server;
    const refused = await refusal(
      connectHankweave(url, {
        token,
        headers: { origin: `http://127.0.0.1:${world.server.port}` },
      }),
    );
    expect(refused).toMatchObject({ status: 403 });
  });

  it('closes a connection that sends a message over the size limit with 1009 and stays up', async () => {
    const world = await served({}, { maxMessageBytes: 64 * 1024 });
    const client = await world.connect();
    client.sendRaw(JSON.stringify({ id: 'big', type: 'ping', data: 'x'.repeat(70 * 1024) }));
    expect((await client.closed).code).toBe(CLOSE_CODES.MESSAGE_TOO_BIG);
    const next = await world.connect();
    expect(await next.send({ type: 'ping', data: 'y'.repeat(60 * 1024) })).toBeUndefined();
  });

  it('uses a 1 MB limit by default', async () => {
    const world = await served();
    const client = await world.connect();
    expect(await client.send({ type: 'ping', data: 'x'.repeat(1000 * 1000) })).toBeUndefined();
    client.sendRaw(JSON.stringify({ type: 'ping', data: 'x'.repeat(1024 * 1024) }));
    expect((await client.closed).code).toBe(CLOSE_CODES.MESSAGE_TOO_BIG);
  });

  it('refuses more clients than maxClients with 503', async () => {
    const world = await served({}, { maxClients: 2 });
    await world.connect();
    await world.connect();
    expect(await refusal(world.connect())).toMatchObject({ status: 503 });
  });

  it('answers plain HTTP with the JSON 400 and no CORS header', async () => {
    const world = await served();
    const response = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      body: string;
    }>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${world.server.port}/`, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual({
      error: 'HTTP API not available',
      message: expect.any(String),
      websocket: world.server.url,
      help: expect.any(String),
    });
  });

  it('binds to 127.0.0.1 and needs allowRemote for any other host, with a warning', async () => {
    const world = await startFakeWorld();
    worlds.push(world);
    await expect(startWebSocketServer(world.runtime, { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'SERVER_INVALID_OPTION',
      details: { option: 'host' },
    });
    const server = await startWebSocketServer(world.runtime, {
      host: '0.0.0.0',
      allowRemote: true,
    });
    expect(server.url).toBe(`ws://0.0.0.0:${server.port}/ws`);
    await server.close();
    const log = readFileSync(world.runtime.layout.serverLog, 'utf8');
    expect(log).toMatch(/\[WARN\] The WebSocket server binds to 0\.0\.0\.0/);
    const local = await startWebSocketServer(world.runtime);
    expect(local.host).toBe('127.0.0.1');
    await local.close();
  });

  it('makes a new random token per server unless one is given', async () => {
    const world = await startFakeWorld();
    worlds.push(world);
    const first = await startWebSocketServer(world.runtime);
    await first.close();
    const second = await startWebSocketServer(world.runtime);
    await second.close();
    expect(first.token).not.toBe(second.token);
    const fixed = await startWebSocketServer(world.runtime, {
      token: 'given-token',
    });
    expect(fixed.token).toBe('given-token');
    const client = await connectHankweave(fixed.url, { token: 'given-token' });
    expect(codeOf(await client.send({ type: 'ping' }))).toBeUndefined();
    await fixed.close();
  });
});

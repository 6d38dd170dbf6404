import { cleanupTempDirs } from '@hankweave/durable-io/testing';
import { RuntimeError } from '@hankweave/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from './close-codes.js';
import { connectHankweave } from './connect-hankweave.js';
import { createFakePort, type FakePort } from './testing.js';
import { type HankweaveServer, startWebSocketServer } from './websocket-server.js';

// The server over a fake port: what it needs from a runtime is the port's members and nothing
// else, so these tests need no runtime, no execution and no agent.

const servers: HankweaveServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await cleanupTempDirs();
});
async function serve(port: FakePort): Promise<HankweaveServer> {
  const server = await startWebSocketServer(port, { serverVersion: 'fake' });
  servers.push(server);
  return server;
}

describe('startWebSocketServer() over a RuntimePort', () => {
  it('announces itself through updateLock and tells clients the port’s facts in server.ready', async () => {
    const port = createFakePort();
    const server = await serve(port);
    expect(port.locks).toEqual([{ port: server.port, host: '127.0.0.1', token: server.token }]);
    expect(port.logged).toContain(`INFO WebSocket server listening on ${server.url}`);
    const seen: string[] = [];
    const client = await connectHankweave(server.url, {
      token: server.token,
      onEvent: (event) => seen.push(event.type),
    });
    expect(client.ready).toEqual({
      serverVersion: 'fake',
      executionPath: port.layout.executionDir,
      agentRootPath: port.layout.agentRoot,
      dataPath: port.dataPath,
      port: server.port,
    });
    // Autostart off and idle: the handshake says the runtime waits for commands.
    await client.send({ type: 'ping' });
    expect(seen.slice(0, 2)).toEqual(['server.ready', 'server.idle']);
    await client.close();
  });

  it('replays recentEvents in the handshake and then delivers what the port publishes', async () => {
    const port = createFakePort({ autostart: true });
    const before = port.emit('codon.started', { codonId: 'a' });
    const server = await serve(port);
    const client = await connectHankweave(server.url, {
      token: server.token,
      sendPreviousEvents: true,
    });
    expect(client.handshake.eventHistory.map((event) => event.id)).toEqual([before.id]);
    expect(client.handshake.totalEvents).toBe(1);
    const next = client.waitFor((event) => event.type === 'codon.completed', 5_000);
    const after = port.emit('codon.completed', { codonId: 'a', success: true });
    expect((await next).id).toBe(after.id);
    await client.close();
  });

  it('passes commands to port.command, and its refusals to the client with their wire code', async () => {
    const port = createFakePort();
    const answer = port.answer;
    port.answer = async (command) => {
      if (command.type === 'codon.next')
        throw new RuntimeError('RUNTIME_ROLLBACK_IN_PROGRESS', 'A rollback is in progress');
      return answer(command);
    };
    const server = await serve(port);
    const writer = await connectHankweave(server.url, {
      token: server.token,
      mode: 'readandwrite',
    });
    const refused = await writer.send({ id: 'n1', type: 'codon.next' });
    expect(refused?.data).toMatchObject({
      code: 'ROLLBACK_IN_PROGRESS',
      context: { commandId: 'n1', commandType: 'codon.next' },
    });
    // The client's ping (its acknowledgement) went through the port too, after the command.
    expect(port.commands.map((command) => command.type)).toEqual(['codon.next', 'ping']);
    await writer.close();
  });

  it('keeps a read-only client from reaching port.command with a changing command', async () => {
    const port = createFakePort();
    const server = await serve(port);
    const reader = await connectHankweave(server.url, { token: server.token });
    const refused = await reader.send({ type: 'server.shutdown' });
    expect(refused?.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(port.commands.map((command) => command.type)).toEqual(['ping']);
    await reader.close();
  });

  it('closes every client with 1001 once the port has finished', async () => {
    const port = createFakePort();
    const server = await serve(port);
    const client = await connectHankweave(server.url, { token: server.token });
    port.phase = 'closed';
    port.finish({ exitCode: 0, reason: 'all codons completed' });
    expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentWorld, EXAMPLE_DIR, makeAgentWorld } from '../test/agent-world.js';
import { connectTestClient, idle } from '../test/server-world.js';
import { startWebSocketServer } from './websocket-server.js';

// The real Claude Code agent on the scripted model, driven and watched only over WebSocket.
describe('a real agent run over WebSocket', () => {
  let world: AgentWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  it('runs one codon on codon.next, streams its events, and shuts down on server.shutdown', async () => {
    const example = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'hank.json'), 'utf8'));
    world = await makeAgentWorld({ hank: { ...example, hank: example.hank.slice(0, 1) } });
    const runtime = world.runtime({ autostart: false });
    await runtime.start();
    const server = await startWebSocketServer(runtime, { serverVersion: 'test' });
    const driver = await connectTestClient(server.url, { token: server.token });
    const watcher = await connectTestClient(server.url, {
      token: server.token,
      mode: 'readonly',
    });
    expect(watcher.ready).toMatchObject({ serverVersion: 'test', port: server.port });

    expect(await driver.send({ type: 'codon.next' })).toBeUndefined();
    const completed = await watcher.until((event) => event.type === 'codon.completed', 0, 90_000);
    expect(completed.data).toMatchObject({ codonId: 'observe', success: true });
    await watcher.until(idle('all-codons-completed'), 0, 10_000);
    for (const type of ['codon.started', 'assistant.action', 'tool.result', 'file.updated'])
      expect(
        watcher.seen.some((event) => event.type === type),
        type,
      ).toBe(true);

    expect(await driver.send({ type: 'server.shutdown' })).toBeUndefined();
    expect(await runtime.finished).toMatchObject({ exitCode: 0 });
    expect((await watcher.closed).code).toBe(1001);
    const journal = readFileSync(
      join(runtime.executionDir, '.hankweave', 'events', 'events.jsonl'),
      'utf8',
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as string);
    const live = watcher.seen.map((event) => event.id).filter((id) => journal.includes(id));
    expect(live).toEqual(journal.slice(watcher.handshake.totalEvents));
  });
});

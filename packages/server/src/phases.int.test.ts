import { describe, expect, it } from 'vitest';
import {
  codeOf,
  errorsFor,
  idle,
  type ServedWorld,
  useServedWorlds,
} from '../test/server-world.js';
import { CLOSE_CODES } from './close-codes.js';

const served = useServedWorlds({ failOnCrash: true });

const command = (id: string, type: string, data?: unknown) =>
  JSON.stringify({ id, type, ...(data === undefined ? {} : { data }) });

/** Waits (turn by turn of the event loop) until the runtime is in `phase`. */
async function untilPhase(world: ServedWorld, phase: string, timeoutMs = 10_000): Promise<void> {
  const { runtime } = world;
  const deadline = Date.now() + timeoutMs;
  while (runtime.phase !== phase) {
    if (Date.now() > deadline) throw new Error(`still ${runtime.phase}, never ${phase}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('commands over the wire while the runtime changes phase', () => {
  it('refuses a codon.start after server.force_shutdown with RUNTIME_SHUTTING_DOWN, then closes with 1001', async () => {
    const world = await served();
    const client = await world.connect();
    const late = await world.connect();
    // One write each: the server handles a client's messages in order, and the force shutdown
    // moves the runtime to `stopping` before its handler returns, while closing the stores takes
    // I/O. So the same client's codon.start always meets `stopping` and gets a coded refusal.
    client.sendRaw(command('force', 'server.force_shutdown'));
    client.sendRaw(command('start', 'codon.start', { codonId: 'a' }));
    // Another client races the close: refused if its message is read before the runtime has
    // closed, else its connection is closed (1001) with the rest; never run, never a crash.
    late.sendRaw(command('late', 'codon.start', { codonId: 'b' }));

    expect(await world.runtime.finished).toEqual({ exitCode: 1, reason: 'force' });
    expect(await client.closed).toMatchObject({ code: CLOSE_CODES.GOING_AWAY });
    expect(await late.closed).toMatchObject({ code: CLOSE_CODES.GOING_AWAY });
    expect(errorsFor(client, 'force')).toEqual([]);
    expect(errorsFor(client, 'start').map(codeOf)).toEqual(['RUNTIME_SHUTTING_DOWN']);
    expect(errorsFor(late, 'late').map(codeOf)).toEqual(
      late.seen.some((event) => event.type === 'error') ? ['RUNTIME_SHUTTING_DOWN'] : [],
    );
    expect(world.harness.starts).toHaveLength(0);
    expect(world.runtime.phase).toBe('closed');
    // Closing again is harmless once the runtime has closed.
    await expect(world.runtime.close()).resolves.toBeDefined();
  });

  it('force-stops a running codon without the runtime failing on its closed stores', async () => {
    // The crash: the abandoned codon kept writing while the force shutdown closed the
    // state store ("The state store ... is closed", then "The runtime failed: StateError ...").
    for (const script of [
      { hang: true },
      { scenario: { turns: [{ text: 'one' }, { text: 'two' }] } },
    ]) {
      const world = await served({ lineDelayMs: 5, script });
      const client = await world.connect();
      const from = client.seen.length;
      client.sendRaw(command('start', 'codon.start', { codonId: 'a' }));
      await client.until((event) => event.type === 'codon.started', from);
      client.sendRaw(command('force', 'server.force_shutdown'));
      client.sendRaw(command('next', 'codon.next'));
      expect(await world.runtime.finished).toEqual({ exitCode: 1, reason: 'force' });
      await client.closed;
      const broadcastErrors = client.seen
        .filter((event) => event.type === 'error' && !event.data.context)
        .map((event) => (event.data as { message: string }).message.split('\n')[0]);
      expect(broadcastErrors, JSON.stringify(script)).toEqual([]);
      expect(errorsFor(client, 'next').map(codeOf)).toEqual(['RUNTIME_SHUTTING_DOWN']);
    }
  });

  it('answers every command after the close with a closed connection, never a crash', async () => {
    const world = await served();
    const client = await world.connect();
    client.sendRaw(command('force', 'server.force_shutdown'));
    await world.runtime.finished;
    expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
    // The server has stopped listening: a new client is refused at the TCP level.
    await expect(world.connect({ timeoutMs: 2000 })).rejects.toThrow();
  });

  it('refuses changing commands during a rollback with ROLLBACK_IN_PROGRESS and answers reads', async () => {
    const world = await served({ codons: 3 });
    const driver = await world.connect();
    const other = await world.connect();
    let from = driver.seen.length;
    expect(await driver.send({ type: 'codon.next' })).toBeUndefined();
    await driver.until(idle('codon-completed'), from);

    from = driver.seen.length;
    driver.sendRaw(command('rb', 'rollback.toLastSuccess'));
    await untilPhase(world, 'rolling-back');
    const refused: Array<[string, string, unknown?]> = [
      ['n', 'codon.next'],
      ['s', 'codon.start', { codonId: 'b' }],
      ['r', 'codon.redo'],
      ['k', 'codon.skip'],
      ['f', 'codon.forceStop'],
      ['t', 'rollback.toCodon', { codonId: 'a', checkpointType: 'end' }],
      ['l', 'rollback.toLastSuccess'],
    ];
    for (const [id, type, data] of refused) other.sendRaw(command(id, type, data));
    other.sendRaw(command('list', 'checkpoint.list'));
    expect(await other.send({ id: 'p', type: 'ping' })).toBeUndefined();
    for (const [id] of refused)
      expect(errorsFor(other, id).map(codeOf), id).toEqual(['ROLLBACK_IN_PROGRESS']);
    expect(errorsFor(other, 'list')).toEqual([]);

    await driver.until(idle('rollback-completed'), from);
    expect(errorsFor(driver, 'rb')).toEqual([]);
    expect(world.runtime.phase).toBe('idle');
    // Nothing the refused commands asked for happened: only the rollback's continuation run.
    expect(world.harness.starts).toHaveLength(1);
    expect(world.runtime.getState().runs[0]?.codons).toEqual([]);
  });

  it('refuses changing commands while stopping with RUNTIME_SHUTTING_DOWN and answers reads', async () => {
    const world = await served({
      codons: 2,
      script: (codonId) => (codonId === 'a' ? { hang: true } : {}),
    });
    const client = await world.connect();
    const from = client.seen.length;
    expect(await client.send({ type: 'codon.next' })).toBeUndefined();
    await client.until((event) => event.type === 'codon.started', from);

    client.sendRaw(command('stop', 'server.shutdown'));
    for (const [id, type] of [
      ['n', 'codon.next'],
      ['k', 'codon.skip'],
      ['f', 'codon.forceStop'],
      ['l', 'rollback.toLastSuccess'],
    ])
      client.sendRaw(command(id ?? '', type ?? ''));
    client.sendRaw(command('list', 'checkpoint.list'));
    client.sendRaw(command('p', 'ping'));
    await client.until(
      (event) => event.type === 'pong' && (event.data as { replyTo?: string }).replyTo === 'p',
      from,
    );
    for (const id of ['n', 'k', 'f', 'l'])
      expect(errorsFor(client, id).map(codeOf), id).toEqual(['RUNTIME_SHUTTING_DOWN']);
    expect(errorsFor(client, 'stop')).toEqual([]);
    // A read during the stop is answered, with its result or one coded error.
    expect(errorsFor(client, 'list').length).toBeLessThanOrEqual(1);

    expect(await world.runtime.finished).toMatchObject({ reason: 'client request' });
    expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
    expect(world.harness.starts).toHaveLength(1);
    expect(world.runtime.phase).toBe('closed');
  });

  it('cannot take commands before start(): the server needs an open execution', async () => {
    const { createRuntime } = await import('@hankweave/runtime');
    const { startWebSocketServer } = await import('./websocket-server.js');
    const runtime = createRuntime({ hank: {}, dataPath: '/nonexistent' });
    await expect(startWebSocketServer(runtime)).rejects.toMatchObject({
      code: 'RUNTIME_NOT_STARTED',
    });
  });
});

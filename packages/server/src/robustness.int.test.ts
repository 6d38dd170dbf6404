import { readFileSync } from 'node:fs';
import { seededRandom } from '@hankweave/durable-io/testing';
import { CLIENT_COMMAND_TYPES, type HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { clientTextFrame, rawUpgrade, serverFrames } from '../test/raw-socket.js';
import { codeOf, idle, journalOf, until, useServedWorlds } from '../test/server-world.js';
import { CLOSE_CODES } from './close-codes.js';

const served = useServedWorlds();

/** Messages that are never a valid command: each must get exactly one error event. */
function malformedMessages(count: number, seed = 11): string[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const junk = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(32 + Math.floor(next() * 0x2000))).join('');
  const badPayloads = [
    { type: 'codon.start', data: {} },
    { type: 'codon.start', data: { codonId: 5 } },
    { type: 'codon.start', data: { codonID: 'a' } },
    { type: 'rollback.toCodon', data: { codonId: 'a' } },
    { type: 'rollback.toCodon', data: { codonId: 'a', checkpointType: 'middle' } },
    { type: 'rollback.toCheckpoint', data: { checkpointSha: 'ab' } },
    { type: 'checkpoint.list', data: 'all' },
    { type: 'server.shutdown', data: { reason: 1 } },
    { type: 'server.force_shutdown', data: { now: true } },
    { type: 'codon.forceStop', data: { reason: {} } },
    { type: 'rollback.toLastSuccess', data: { autoRestart: 'yes' } },
    { type: 'ping', extra: 1 },
    { type: 'codon.next', data: null, also: [] },
    { type: 'history.sync', id: 7 },
  ];
  const makers: Array<() => string> = [
    () => junk(1 + Math.floor(next() * 200)),
    () => JSON.stringify(pick(badPayloads)).slice(0, -1 - Math.floor(next() * 5)),
    () => pick(['null', '1', '"ping"', '[]', '[{"type":"ping"}]', 'true', '{}', '{"type":7}']),
    () => JSON.stringify({ id: `u${next()}`, type: `x.${junk(8)}` }),
    () => JSON.stringify({ id: `b${next()}`, ...pick(badPayloads) }),
    () => JSON.stringify({ type: 'handshake', data: { mode: pick(['readonly', 'admin']) } }),
  ];
  return Array.from({ length: count }, () => pick(makers)());
}

describe('WebSocket server robustness', () => {
  it('answers 10 000 malformed messages with one error each and stays up', async () => {
    const world = await served({}, { rateLimit: { messagesPerSecond: 1e6, burst: 1e6 } });
    const client = await world.connect();
    const messages = malformedMessages(10_000);
    expect(messages.some((message) => CLIENT_COMMAND_TYPES.some((type) => message === type))).toBe(
      false,
    );
    const journalBefore = (await journalOf(world)).length;
    const started = Date.now();
    const from = client.seen.length;
    for (const message of messages) client.sendRaw(message);
    await until(client.seen, () => client.seen.length - from >= messages.length, from, 30_000);
    const elapsed = Date.now() - started;
    const replies = client.seen.slice(from);
    expect(replies).toHaveLength(messages.length);
    expect(replies.every((event) => event.type === 'error')).toBe(true);
    const codes = new Set(replies.map(codeOf));
    for (const code of [
      'INVALID_JSON',
      'INVALID_COMMAND',
      'UNKNOWN_COMMAND',
      'RUNTIME_BAD_COMMAND',
    ])
      expect(codes).toContain(code);
    expect(elapsed).toBeLessThan(20_000);
    // Still serving, nothing changed, nothing journaled.
    expect(await client.send({ type: 'ping' })).toBeUndefined();
    const other = await world.connect();
    expect(await other.send({ type: 'ping' })).toBeUndefined();
    expect((await journalOf(world)).length).toBe(journalBefore);
    expect(world.runtime.getState().runs[0]?.codons).toHaveLength(0);
  });

  it('rate-limits a client alone, answers each dropped message once, in order, and serves it again after a pause', async () => {
    const world = await served({}, { rateLimit: { messagesPerSecond: 20, burst: 5 } });
    const noisy = await world.connect();
    const calm = await world.connect();
    const from = noisy.seen.length;
    for (let index = 0; index < 50; index++)
      noisy.sendRaw(JSON.stringify({ id: `p${index}`, type: 'ping' }));
    const answerId = (event: HankweaveEvent) =>
      (event.data as { context?: { commandId?: string } }).context?.commandId ??
      (event.data as { replyTo?: string }).replyTo;
    const last = await noisy.until((event) => answerId(event) === 'p49', from);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const replies = noisy.seen.slice(from);
    // Exactly one answer each, in the order sent: its pong, or its own RATE_LIMITED (issue 17).
    expect(replies.indexOf(last)).toBe(replies.length - 1);
    expect(replies.map(answerId)).toEqual(Array.from({ length: 50 }, (_, index) => `p${index}`));
    const limited = replies.filter((event) => codeOf(event) === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThan(40);
    for (const event of limited)
      expect(event.data).toMatchObject({ fatal: false, severity: 'operation' });
    expect(replies.filter((event) => event.type === 'pong').length).toBeLessThan(10);
    expect(await calm.send({ type: 'ping' })).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await noisy.send({ type: 'ping' })).toBeUndefined();
    // websocket.log gets one refusal a second, not one per refused message.
    await world.server.close();
    const logged = readFileSync(world.runtime.layout.websocketLog, 'utf8')
      .split('\n')
      .filter((line) => line.includes('RATE_LIMITED'));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged.length).toBeLessThanOrEqual(2);
  });

  it('closes a client that stops reading with 4008 without delaying the run', async () => {
    const big = 'x'.repeat(100_000);
    const world = await served(
      {
        codons: 3,
        script: { scenario: { turns: Array.from({ length: 20 }, () => ({ text: big })) } },
      },
      { maxBufferedBytes: 256 * 1024, closeGraceMs: 30_000 },
    );
    const watcher = await world.connect({ mode: 'readonly' });
    const stalled = await rawUpgrade(world.server.port, {
      authorization: `Bearer ${world.server.token}`,
    });
    stalled.socket.write(
      clientTextFrame(JSON.stringify({ type: 'handshake', data: { mode: 'readonly' } })),
    );
    // Wait for the handshake, then never read again.
    const deadline = Date.now() + 5000;
    while (world.server.clients().filter((client) => client.handshaken).length < 2) {
      if (Date.now() > deadline) throw new Error('the stalled client never handshook');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    stalled.socket.pause();

    const started = Date.now();
    for (let index = 0; index < 3; index++) {
      const from = world.events.length;
      await world.runtime.command({ type: 'codon.next' });
      await until(world.events, (event) => event.type === 'server.idle', from, 30_000);
    }
    const runMs = Date.now() - started;
    expect(runMs).toBeLessThan(20_000);
    const journal = await journalOf(world);
    expect(journal.reduce((sum, event) => sum + JSON.stringify(event).length, 0)).toBeGreaterThan(
      5_000_000,
    );
    // The reading client got everything.
    await watcher.until(idle('all-codons-completed'));
    // Told apart by id, not by type: the journaled `server.idle` of the start may arrive live
    // when its publication (after the state save) overlaps the handshake.
    const journaled = new Set(journal.map((event) => event.id));
    expect(
      watcher.seen.filter((event) => !journaled.has(event.id)).map((event) => event.type),
    ).toEqual(['server.ready', 'server.idle']);
    expect(
      watcher.seen.filter((event) => journaled.has(event.id)).map((event) => event.id),
    ).toEqual(journal.slice(watcher.handshake.totalEvents).map((event) => event.id));
    const warned = readFileSync(world.runtime.layout.serverLog, 'utf8');
    expect(warned).toMatch(/fell more than 262144 bytes behind/);

    // Reading again, the stalled client finds at most the bound's worth of data, then a 4008 close.
    let received = stalled.rest;
    const closeFrame = new Promise<number | undefined>((resolve) => {
      stalled.socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const last = serverFrames(received).at(-1);
        if (last?.opcode === 0x8) resolve(last.closeCode);
      });
    });
    stalled.socket.resume();
    expect(await closeFrame).toBe(CLOSE_CODES.TOO_FAR_BEHIND);
    expect(received.length).toBeLessThan(8 * 1024 * 1024);
    stalled.socket.destroy();
  });
});

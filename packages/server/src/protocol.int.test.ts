import { readFileSync, statSync } from 'node:fs';
import { CheckpointEngine } from '@hankweave/checkpoints';
import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { codeOf, idle, journalOf, useServedWorlds } from '../test/server-world.js';

const served = useServedWorlds();

const ids = (events: HankweaveEvent[]) => events.map((event) => event.id);
/** What a client received that is journaled (not the targeted connection events). */
const journaledOnly = (events: HankweaveEvent[]) =>
  events.filter(
    (event) =>
      !['pong', 'server.ready', 'history.batch', 'error'].includes(event.type) &&
      !(event.type === 'server.idle' && event.data.reason === 'startup'),
  );

describe('startWebSocketServer()', () => {
  describe('handshake', () => {
    it('replies handshake.response, server.ready, then server.idle to that client only', async () => {
      const world = await served();
      const first = await world.connect();
      const second = await world.connect({ mode: 'readonly', sendPreviousEvents: true });
      const journal = await journalOf(world);
      expect(second.handshake).toMatchObject({ mode: 'readonly', totalEvents: journal.length });
      expect(second.handshake.clientId).toMatch(/^client_/);
      expect(ids(second.handshake.eventHistory)).toEqual(ids(journal.slice(-50)));
      await second.until(idle('startup'));
      expect(second.seen.slice(0, 2).map((event) => event.type)).toEqual([
        'server.ready',
        'server.idle',
      ]);
      const layout = world.runtime.layout;
      expect(second.ready).toMatchObject({
        port: world.server.port,
        executionPath: layout.executionDir,
        agentRootPath: layout.agentRoot,
      });
      await first.send({ type: 'ping' });
      // The first client saw its own connection events and pongs (send() acks with a ping), nothing of the second's.
      expect(first.seen.map((event) => event.type)).toEqual([
        'server.ready',
        'server.idle',
        'pong',
        'pong',
      ]);
    });

    it('writes port, host and token to runtime.lock, readable by the owner only', async () => {
      const world = await served();
      const lockPath = world.runtime.layout.lockFile;
      const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
      expect(lock).toMatchObject({
        port: world.server.port,
        host: '127.0.0.1',
        token: world.server.token,
      });
      expect(world.server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(statSync(lockPath).mode & 0o777).toBe(0o600);
    });
  });

  describe('commands', () => {
    it('broadcasts every journaled event to every handshaken client, in journal order', async () => {
      const world = await served();
      const writer = await world.connect();
      const reader = await world.connect({ mode: 'readonly' });
      const before = (await journalOf(world)).length;
      expect(await writer.send({ type: 'codon.next' })).toBeUndefined();
      await reader.until(idle('codon-completed'));
      await writer.until(idle('codon-completed'));
      const journaled = ids((await journalOf(world)).slice(before));
      expect(journaled.length).toBeGreaterThan(10);
      expect(ids(journaledOnly(reader.seen))).toEqual(journaled);
      expect(ids(journaledOnly(writer.seen))).toEqual(journaled);
    });

    it('runs the whole command set with the runtime guards and codes', async () => {
      const world = await served({
        script: (codonId, index) => (codonId === 'b' && index === 1 ? { hang: true } : {}),
      });
      const client = await world.connect();
      const mark = () => client.seen.length;

      expect(codeOf(await client.send({ type: 'codon.skip' }))).toBe('RUNTIME_NO_CODON_RUNNING');
      expect(codeOf(await client.send({ type: 'codon.forceStop' }))).toBe(
        'RUNTIME_NO_CODON_RUNNING',
      );
      expect(codeOf(await client.send({ type: 'codon.redo' }))).toBe('RUNTIME_NO_MORE_CODONS');

      let from = mark();
      expect(await client.send({ type: 'codon.start', data: { codonId: 'a' } })).toBeUndefined();
      await client.until(idle('codon-completed'), from);
      // b hangs: codon.next and rollbacks are refused while it runs, then it is force-stopped.
      from = mark();
      expect(await client.send({ type: 'codon.next' })).toBeUndefined();
      await client.until((event) => event.type === 'codon.started', from);
      expect(codeOf(await client.send({ type: 'codon.next' }))).toBe('RUNTIME_CODON_RUNNING');
      expect(
        codeOf(
          await client.send({
            type: 'rollback.toCodon',
            data: { codonId: 'a', checkpointType: 'end' },
          }),
        ),
      ).toBe('RUNTIME_CODON_RUNNING');
      // A skip or force-stop aimed at a codon that no longer runs stops nothing.
      const aimedAtA = await client.send({ type: 'codon.skip', data: { codonId: 'a' } });
      expect(aimedAtA).toMatchObject({
        data: {
          code: 'RUNTIME_NO_CODON_RUNNING',
          message: 'Codon a is not running (b is); nothing was stopped',
        },
      });
      expect(codeOf(await client.send({ type: 'codon.forceStop', data: { codonId: 'a' } }))).toBe(
        'RUNTIME_NO_CODON_RUNNING',
      );
      expect(client.seen.slice(from).some((event) => event.type === 'codon.completed')).toBe(false);
      from = mark();
      expect(
        await client.send({ type: 'codon.forceStop', data: { reason: 'test', codonId: 'b' } }),
      ).toBeUndefined();
      const stopped = await client.until((event) => event.type === 'codon.completed', from);
      expect(stopped.data).toMatchObject({ codonId: 'b', success: false });

      from = mark();
      expect(await client.send({ type: 'codon.redo' })).toBeUndefined();
      await client.until((event) => event.type === 'codon.completed', from);
      await client.until((event) => event.type === 'server.idle', from);

      from = mark();
      expect(await client.send({ type: 'checkpoint.list' })).toBeUndefined();
      const listed = await client.until((event) => event.type === 'checkpoint.list', from);
      const checkpoints = (listed.data as { checkpoints: Array<{ sha: string; codonId: string }> })
        .checkpoints;
      const target = checkpoints.find((checkpoint) => checkpoint.codonId === 'a');
      expect(target).toBeDefined();

      from = mark();
      expect(
        await client.send({
          type: 'rollback.toCheckpoint',
          data: { checkpointSha: target?.sha.slice(0, 8) ?? '' },
        }),
      ).toBeUndefined();
      await client.until(idle('rollback-completed'), from);
      expect(await client.send({ type: 'rollback.toLastSuccess' })).toBeUndefined();
      expect(
        codeOf(
          await client.send({ type: 'rollback.toCheckpoint', data: { checkpointSha: 'ffffffff' } }),
        ),
      ).toBe('CHECKPOINT_NOT_FOUND');

      const closed = client.closed;
      expect(
        await client.send({ type: 'server.shutdown', data: { reason: 'done' } }),
      ).toBeUndefined();
      expect((await world.runtime.finished).reason).toBe('client request');
      expect((await closed).code).toBe(1001);
      expect(
        client.seen.some(
          (event) =>
            event.type === 'state.transition' && event.data.transitionType === 'RunCompleted',
        ),
      ).toBe(true);
    });

    it('answers ping to the sender only and ping.broadcast to everyone with the sender id', async () => {
      const world = await served();
      const a = await world.connect();
      const b = await world.connect({ mode: 'readonly' });
      const pongs = (client: typeof a) => client.seen.filter((event) => event.type === 'pong');
      // send() is the command plus its own acknowledging ping: two pongs, both with replyTo.
      await a.send({ type: 'ping', id: 'p1' });
      expect(pongs(a).map((event) => (event.data as { replyTo?: string }).replyTo)).toEqual([
        'p1',
        expect.stringMatching(/^ack_/),
      ]);
      expect(pongs(b)).toHaveLength(0);
      await a.send({ type: 'ping.broadcast' });
      await b.until((event) => event.type === 'pong');
      for (const client of [a, b]) {
        const broadcast = pongs(client).filter((event) => event.data.clientId !== undefined);
        expect(broadcast.map((event) => event.data.clientId)).toEqual([a.handshake.clientId]);
      }
    });

    it('stops the runtime at once on server.force_shutdown', async () => {
      const world = await served();
      const client = await world.connect();
      await client.send({ type: 'server.force_shutdown' });
      expect((await world.runtime.finished).exitCode).toBe(1);
      expect((await client.closed).code).toBe(1001);
    });
  });

  describe('permissions and errors', () => {
    it('refuses every changing command of a read-only client, shutdown included', async () => {
      const world = await served();
      const reader = await world.connect({ mode: 'readonly' });
      const changing = [
        { type: 'codon.start', data: { codonId: 'a' } },
        { type: 'codon.next' },
        { type: 'codon.skip' },
        { type: 'codon.redo' },
        { type: 'codon.forceStop' },
        { type: 'server.shutdown' },
        { type: 'server.force_shutdown' },
        { type: 'rollback.toCheckpoint', data: { checkpointSha: 'abcdef12' } },
        { type: 'rollback.toCodon', data: { codonId: 'a', checkpointType: 'end' } },
        { type: 'rollback.toLastSuccess' },
      ];
      for (const command of changing) {
        expect(codeOf(await reader.send(command as never)), command.type).toBe(
          'INSUFFICIENT_PERMISSIONS',
        );
      }
      expect(await reader.send({ type: 'checkpoint.list' })).toBeUndefined();
      expect(ids(await reader.historySync())).toEqual(ids(await journalOf(world)));
      expect(world.runtime.getState().runs[0]?.codons).toHaveLength(0);
      expect(world.runtime.phase).toBe('idle');
    });

    it('answers malformed input with an error to the sender only and keeps the connection', async () => {
      const world = await served();
      const client = await world.connect();
      const other = await world.connect();
      const before = other.seen.length;
      client.sendRaw('{not json');
      client.sendRaw('[1,2]');
      client.sendRaw(JSON.stringify({ id: 'x1', type: 'nope' }));
      client.sendRaw(JSON.stringify({ id: 'x2', type: 'codon.start', data: { codonID: 'a' } }));
      client.sendRaw(JSON.stringify({ type: 'handshake', data: { mode: 'readonly' } }));
      await client.send({ type: 'ping' });
      const errors = client.seen.filter((event) => event.type === 'error');
      expect(errors.map(codeOf)).toEqual([
        'INVALID_JSON',
        'INVALID_COMMAND',
        'UNKNOWN_COMMAND',
        'RUNTIME_BAD_COMMAND',
        'ALREADY_HANDSHAKEN',
      ]);
      for (const event of errors)
        expect(event.data).toMatchObject({ fatal: false, severity: 'operation' });
      expect(errors[2]?.data).toMatchObject({ context: { commandId: 'x1', commandType: 'nope' } });
      await other.send({ type: 'ping' });
      expect(other.seen.slice(before).map((event) => event.type)).toEqual(['pong', 'pong']);
      expect((await journalOf(world)).some((event) => event.type === 'error')).toBe(false);
    });

    it('refuses a changing command during a rollback with ROLLBACK_IN_PROGRESS', async () => {
      const world = await served({ codons: 2 });
      const driver = await world.connect();
      let from = driver.seen.length;
      await driver.send({ type: 'codon.next' });
      await driver.until(idle('codon-completed'), from);
      const other = await world.connect();
      // Hold the checkpoint restore until the refused command has been answered, so the test does
      // not depend on how fast git is. The runtime's engine is a CheckpointEngine of the one
      // @hankweave/checkpoints this workspace links, so holding its prototype's restore holds it.
      const restore = CheckpointEngine.prototype.restore;
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const spy = vi
        .spyOn(CheckpointEngine.prototype, 'restore')
        .mockImplementation(async function (this: CheckpointEngine, ...args) {
          await held;
          return restore.apply(this, args);
        });
      onTestFinished(() => spy.mockRestore());
      from = other.seen.length;
      const rollback = driver.send({
        type: 'rollback.toCodon',
        data: { codonId: 'a', checkpointType: 'start' },
      });
      await other.until((event) => event.type === 'rollback.started', from, 10_000);
      expect(world.runtime.phase).toBe('rolling-back');
      expect(codeOf(await other.send({ type: 'codon.next' }))).toBe('ROLLBACK_IN_PROGRESS');
      expect(codeOf(await other.send({ type: 'rollback.toLastSuccess' }))).toBe(
        'ROLLBACK_IN_PROGRESS',
      );
      // Read-only commands still work during a rollback.
      expect(await other.send({ type: 'checkpoint.list' })).toBeUndefined();
      release();
      expect(await rollback).toBeUndefined();
    });
  });

  describe('catching up', () => {
    it('lets a client that joins mid-run rebuild the journal from handshake, live events and history.sync', async () => {
      const turns = Array.from({ length: 8 }, (_, index) => ({ text: `turn ${index}` }));
      // b keeps running after its turns until skipped, so the late client surely joins mid-run
      // (with a fixed length, b could end before the client connected on a busy machine).
      const world = await served(
        {
          lineDelayMs: 5,
          script: (codonId) => ({
            scenario: { turns },
            ...(codonId === 'b' ? { hang: true } : {}),
          }),
        },
        { historyBatchBytes: 2048 },
      );
      const driver = await world.connect();
      let from = driver.seen.length;
      await driver.send({ type: 'codon.next' });
      await driver.until(idle('codon-completed'), from);
      from = driver.seen.length;
      await driver.send({ type: 'codon.next' });
      await driver.until((event) => event.type === 'codon.started', from);
      // Joins while b runs.
      const late = await world.connect({ mode: 'readonly', sendPreviousEvents: true });
      const history = await late.historySync();
      expect(await driver.send({ type: 'codon.skip' })).toBeUndefined();
      await late.until(idle('codon-completed'));
      from = driver.seen.length;
      await driver.send({ type: 'codon.next' });
      await driver.until(idle('all-codons-completed'), from);
      await late.until(idle('all-codons-completed'));
      const journal = ids(await journalOf(world));
      const live = ids(journaledOnly(late.seen));

      // Handshake history + live events: a gap-free, duplicate-free suffix of the journal.
      const fromHandshake = [...ids(late.handshake.eventHistory), ...live];
      expect(fromHandshake).toEqual(journal.slice(journal.length - fromHandshake.length));
      // history.sync, then live events not already in it (the documented overlap): the journal.
      const union = ids(history);
      for (const id of live) if (!union.includes(id)) union.push(id);
      expect(union).toEqual(journal);
      const batches = late.seen.filter((event) => event.type === 'history.batch');
      expect(batches.length).toBeGreaterThan(1);
      expect(batches.map((batch) => batch.data.hasMore)).toEqual([
        ...batches.slice(1).map(() => true),
        false,
      ]);
      for (const batch of batches.filter((candidate) => candidate.data.events.length > 1))
        expect(Buffer.byteLength(JSON.stringify(batch.data.events))).toBeLessThanOrEqual(2048 + 2);
    });

    it('gives a reconnecting client a fresh id and the last 50 events', async () => {
      const world = await served();
      const first = await world.connect();
      await first.send({ type: 'codon.next' });
      await first.until(idle('codon-completed'));
      expect((await first.close()).code).toBe(1000);
      const again = await world.connect({ sendPreviousEvents: true });
      expect(again.handshake.clientId).not.toBe(first.handshake.clientId);
      const journal = await journalOf(world);
      expect(again.handshake.eventHistory).toEqual(journal.slice(-50));
      expect(again.handshake.totalEvents).toBe(journal.length);
      expect(world.server.clients().map((client) => client.id)).toEqual([again.handshake.clientId]);
    });
  });

  it('logs every message in and out to websocket.log in seed 001 format', async () => {
    const world = await served();
    const client = await world.connect();
    await client.send({ type: 'ping' });
    await world.server.close();
    const path = world.runtime.layout.websocketLog;
    expect(path.endsWith('.hankweave/logs/websocket.log')).toBe(true);
    const entries = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries.map((entry) => `${entry.direction} ${entry.message.type}`)).toEqual([
      'in handshake',
      'out handshake.response',
      'out server.ready',
      'out server.idle',
      'in ping',
      'out pong',
      'in ping',
      'out pong',
      // The close tells the client first (issue 17).
      'out info',
    ]);
    expect(Object.keys(entries[0])).toEqual(['loggedAt', 'direction', 'message', 'metadata']);
    expect(entries[0].metadata.size).toBe(Buffer.byteLength(JSON.stringify(entries[0].message)));
  });
});

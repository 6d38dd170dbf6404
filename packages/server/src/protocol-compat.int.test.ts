import { CLIENT_COMMAND_TYPES, type HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { untilOpen } from '../test/fuzz-helpers.js';
import {
  codeOf,
  journalOf,
  type ServedWorld,
  type TestClient,
  useServedWorlds,
} from '../test/server-world.js';
import { CLOSE_CODES } from './close-codes.js';

// Issue 17 item 5: the protocol answers as the original runtime's (reference §3.1–3.3).

const served = useServedWorlds();

let marks = 0;
const pongOf = (mark: string) => (event: HankweaveEvent) =>
  event.type === 'pong' && (event.data as { replyTo?: string }).replyTo === mark;

/**
 * Sends `texts` in one tick, then two marker pings, one after the other, and returns what came
 * before the first pong and what came between the two pongs. A client's messages are answered in
 * order, so everything `texts` caused arrives before the first pong; the second round trip is the
 * settle window in which a late duplicate would show: "exactly one" is counted, not timed.
 */
async function answersTo(
  client: TestClient,
  texts: string[],
): Promise<{ answers: HankweaveEvent[]; late: HankweaveEvent[] }> {
  const from = client.seen.length;
  const first = `settle_${++marks}`;
  for (const text of texts) client.sendRaw(text);
  client.sendRaw(JSON.stringify({ id: first, type: 'ping' }));
  const firstPong = await untilOpen(client, pongOf(first), from);
  const second = `settle_${++marks}`;
  const after = client.seen.indexOf(firstPong) + 1;
  client.sendRaw(JSON.stringify({ id: second, type: 'ping' }));
  const secondPong = await untilOpen(client, pongOf(second), after);
  return {
    answers: client.seen.slice(from, client.seen.indexOf(firstPong)),
    late: client.seen.slice(after, client.seen.indexOf(secondPong)),
  };
}

/** Every kind of malformed message of issue 17, with the code its one error carries. */
const MALFORMED: Array<{ kind: string; text: string; code: string; id?: string }> = [
  { kind: 'not JSON', text: '{"id": "j1", "type": "ping"', code: 'INVALID_JSON' },
  { kind: 'JSON but not an object', text: '[{"id":"a1","type":"ping"}]', code: 'INVALID_COMMAND' },
  { kind: 'no id', text: JSON.stringify({ type: 'ping' }), code: 'INVALID_COMMAND' },
  { kind: 'a number id', text: JSON.stringify({ id: 7, type: 'ping' }), code: 'INVALID_COMMAND' },
  { kind: 'a null id', text: JSON.stringify({ id: null, type: 'ping' }), code: 'INVALID_COMMAND' },
  {
    kind: 'an object id',
    text: '{"id":{"a":1},"type":"checkpoint.list"}',
    code: 'INVALID_COMMAND',
  },
  { kind: 'an empty id', text: JSON.stringify({ id: '', type: 'ping' }), code: 'INVALID_COMMAND' },
  { kind: 'no type', text: JSON.stringify({ id: 't1' }), code: 'INVALID_COMMAND', id: 't1' },
  {
    kind: 'an unknown type',
    text: JSON.stringify({ id: 'u1', type: 'codon.jump' }),
    code: 'UNKNOWN_COMMAND',
    id: 'u1',
  },
  {
    kind: 'a missing payload',
    text: JSON.stringify({ id: 'm1', type: 'codon.start' }),
    code: 'RUNTIME_BAD_COMMAND',
    id: 'm1',
  },
  {
    kind: 'an invalid payload',
    text: JSON.stringify({ id: 'v1', type: 'codon.start', data: { codonId: 5 } }),
    code: 'RUNTIME_BAD_COMMAND',
    id: 'v1',
  },
  {
    kind: 'a rollback with an invalid checkpoint type',
    text: JSON.stringify({
      id: 'r1',
      type: 'rollback.toCodon',
      data: { codonId: 'a', checkpointType: 'middle' },
    }),
    code: 'RUNTIME_BAD_COMMAND',
    id: 'r1',
  },
  {
    kind: 'a rollback without a checkpoint type',
    text: JSON.stringify({ id: 'r2', type: 'rollback.toCodon', data: { codonId: 'a' } }),
    code: 'RUNTIME_BAD_COMMAND',
    id: 'r2',
  },
];

/** Checks `answers` are exactly one non-fatal error per malformed message, in order. */
function expectOneErrorEach(answers: HankweaveEvent[], expected: typeof MALFORMED): void {
  expect(answers.map((event) => event.type)).toEqual(expected.map(() => 'error'));
  expect(answers.map(codeOf)).toEqual(expected.map((message) => message.code));
  answers.forEach((event, index) => {
    expect(event.data).toMatchObject({ fatal: false, severity: 'operation' });
    const id = expected[index]?.id;
    expect((event.data as { context?: { commandId?: string } }).context?.commandId).toBe(id);
  });
}

describe('the protocol as the original runtime answers it (issue 17)', () => {
  it('refuses ping.broadcast of a read-only client, which reaches no one', async () => {
    const world = await served();
    const reader = await world.connect({ mode: 'readonly' });
    const other = await world.connect();
    const { answers, late } = await answersTo(reader, [
      JSON.stringify({ id: 'b1', type: 'ping.broadcast' }),
    ]);
    expect(answers.map(codeOf)).toEqual(['INSUFFICIENT_PERMISSIONS']);
    expect(answers[0]?.data).toMatchObject({
      fatal: false,
      severity: 'operation',
      context: { commandId: 'b1', commandType: 'ping.broadcast' },
    });
    expect(late).toEqual([]);
    await other.send({ type: 'ping' });
    expect(other.seen.filter((event) => event.data.clientId !== undefined)).toEqual([]);
  });

  it('lets a read-only client send exactly the reads of reference §3.1 (shutdown excepted)', async () => {
    const world = await served();
    const reader = await world.connect({ mode: 'readonly' });
    const valid: Record<string, unknown> = {
      'codon.start': { codonId: 'a' },
      'rollback.toCheckpoint': { checkpointSha: 'abcdef12' },
      'rollback.toCodon': { codonId: 'a', checkpointType: 'end' },
    };
    const allowed: string[] = [];
    for (const type of CLIENT_COMMAND_TYPES) {
      const data = valid[type];
      const id = `ro_${type}`;
      const { answers } = await answersTo(reader, [
        JSON.stringify({ id, type, ...(data ? { data } : {}) }),
      ]);
      const errors = answers.filter((event) => event.type === 'error');
      expect(errors.length, type).toBeLessThanOrEqual(1);
      if (errors.length === 0) allowed.push(type);
      else expect(codeOf(errors[0]), type).toBe('INSUFFICIENT_PERMISSIONS');
    }
    // The reference's list minus server.shutdown/force_shutdown: a read-only client cannot stop
    // a server here (the security decision of ARCHITECTURE.md, kept on purpose).
    expect(allowed.sort()).toEqual(['checkpoint.list', 'history.sync', 'ping']);
    expect(world.runtime.phase).toBe('idle');
  });

  for (const mode of ['readandwrite', 'readonly'] as const) {
    it(`answers each malformed message of a ${mode} client with exactly one error`, async () => {
      const world = await served();
      const client = await world.connect({ mode });
      const other = await world.connect();
      const otherBefore = other.seen.length;
      for (const message of MALFORMED) {
        const { answers, late } = await answersTo(client, [message.text]);
        // The schema is checked before the mode (reference §3.1: "Invalid command format"), so a
        // read-only client's malformed rollback gets the same answer as a writer's.
        expectOneErrorEach(answers, [message]);
        expect(late, message.kind).toEqual([]);
      }
      expect(other.seen.length).toBe(otherBefore);
      expect((await journalOf(world)).some((event) => event.type === 'error')).toBe(false);
      expect(await client.send({ type: 'ping' })).toBeUndefined();
    });
  }

  it('answers a burst of 50 malformed messages in one tick with 50 errors, in order', async () => {
    const world = await served();
    const client = await world.connect();
    const burst = Array.from(
      { length: 50 },
      (_, index) => MALFORMED[index % MALFORMED.length] as (typeof MALFORMED)[number],
    );
    const { answers, late } = await answersTo(
      client,
      burst.map((message) => message.text),
    );
    expectOneErrorEach(answers, burst);
    expect(late).toEqual([]);
  });

  it('answers every message of a burst over the rate limit exactly once, in order', async () => {
    const rate = { messagesPerSecond: 10, burst: 20 };
    const world = await served({}, { rateLimit: rate });
    const client = await world.connect();
    // Each message names itself, so each answer is matched to its message.
    const burst = Array.from({ length: 120 }, (_, index) =>
      JSON.stringify({ id: `f${index}`, type: index % 2 === 0 ? 'codon.jump' : 'ping' }),
    );
    const answerId = (event: HankweaveEvent) =>
      (event.data as { context?: { commandId?: string } }).context?.commandId ??
      (event.data as { replyTo?: string }).replyTo;
    const from = client.seen.length;
    for (const text of burst) client.sendRaw(text);
    // Answers come in order: once the last message's is there, every other one is too.
    const last = await client.until((event) => answerId(event) === 'f119', from, 10_000);
    const answers = client.seen.slice(from, client.seen.indexOf(last) + 1);
    expect(answers.map(answerId)).toEqual(burst.map((_, index) => `f${index}`));
    // Nothing more of the burst comes later; meanwhile the bucket refills (100 ms a message).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(client.seen.length).toBe(from + answers.length);
    const { answers: after, late } = await answersTo(client, []);
    expect([...after, ...late]).toEqual([]);
    answers.forEach((event, index) => {
      const limited = codeOf(event) === 'RATE_LIMITED';
      // The handshake took one token of the full bucket.
      if (index < rate.burst - 1) expect(limited, `f${index}`).toBe(false);
      if (limited) expect(event.data).toMatchObject({ fatal: false, severity: 'operation' });
      else if (index % 2 === 0) expect(codeOf(event), `f${index}`).toBe('UNKNOWN_COMMAND');
      else expect(event.type, `f${index}`).toBe('pong');
    });
    expect(answers.filter((event) => codeOf(event) === 'RATE_LIMITED').length).toBeGreaterThan(50);
    expect(await client.send({ type: 'ping' })).toBeUndefined();
  });
});

describe('graceful shutdown tells every client before closing (issue 17)', () => {
  /** Connects three clients recording the order of events and of the close. */
  async function threeClients(world: ServedWorld) {
    const clients = [
      await world.connect(),
      await world.connect({ mode: 'readonly' }),
      await world.connect({ mode: 'readonly' }),
    ];
    return clients.map((client) => {
      let seenAtClose = -1;
      void client.closed.then(() => {
        seenAtClose = client.seen.length;
      });
      return { client, seenAtClose: () => seenAtClose };
    });
  }

  async function expectInfoThenClose(
    clients: Awaited<ReturnType<typeof threeClients>>,
  ): Promise<void> {
    for (const { client, seenAtClose } of clients) {
      expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
      const received = client.seen.slice(0, seenAtClose());
      const last = received.at(-1);
      expect(last?.type).toBe('info');
      // The payload of the reference's `info` (§3.3): a message, nothing else.
      expect(last?.data).toEqual({ message: expect.any(String) });
      expect(client.seen).toHaveLength(seenAtClose());
    }
  }

  it('on server.shutdown, idle: an info reaches all three clients before the close frame', async () => {
    const world = await served();
    const clients = await threeClients(world);
    (clients[0] as (typeof clients)[number]).client.sendRaw(
      JSON.stringify({ id: 'stop', type: 'server.shutdown' }),
    );
    expect((await world.runtime.finished).reason).toBe('client request');
    await expectInfoThenClose(clients);
  });

  it('on runtime close (not forced) while a codon runs: the info comes before the close', async () => {
    const world = await served({ script: { hang: true } });
    const clients = await threeClients(world);
    const driver = (clients[0] as (typeof clients)[number]).client;
    const from = driver.seen.length;
    expect(await driver.send({ type: 'codon.next' })).toBeUndefined();
    await driver.until((event) => event.type === 'codon.started', from);
    await world.runtime.close();
    await expectInfoThenClose(clients);
  });

  it('on a forced shutdown, sends no info before the close', async () => {
    const world = await served();
    const clients = await threeClients(world);
    await world.runtime.close({ force: true });
    // As the original's forceShutdown: minimal cleanup, nothing more is sent, then the close.
    for (const { client } of clients) {
      expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
      expect(client.seen.filter((event) => event.type === 'info')).toEqual([]);
    }
  });
});

import { fuzzSettings, fuzzTimeout } from '@hankweave/durable-io/testing';
import type { HankweaveEvent } from '@hankweave/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBurst } from '../test/burst-check.js';
import { type CrashWatch, settle, watchCrashes } from '../test/crash-watch.js';
import {
  answerTo,
  eventually,
  expectAnswer,
  journaledIds,
  nextMark,
  onTheWire,
  runsOf,
  runtimeFailures,
  untilOpen,
  withoutChangingId,
} from '../test/fuzz-helpers.js';
import { idlessCommand, messageText, type Wire, wire } from '../test/protocol-arbitraries.js';
import { type ConnectionModel, expectedAnswer } from '../test/protocol-oracle.js';
import { rawClient } from '../test/raw-socket.js';
import { rawStep, runRawSteps } from '../test/raw-steps.js';
import {
  codeOf,
  type ServedWorld,
  startServedWorld,
  type TestClient,
} from '../test/server-world.js';
import { CLOSE_CODES } from './close-codes.js';

// Property-based fuzzing of the WebSocket protocol against a live server on loopback (issue 16).
// FUZZ_SEED and FUZZ_RUNS replay or lengthen a run (`fuzzSettings` of @hankweave/durable-io/testing); the defaults
// keep this file within about 20 s. One world per property (starting one costs more than a case);
// each property resets what it needs between cases.

const MAX_MESSAGE_BYTES = 256 * 1024;
const UNLIMITED = { messagesPerSecond: 1e6, burst: 1e6 };

let watch: CrashWatch;
beforeAll(() => {
  watch = watchCrashes();
});
afterAll(() => watch.stop());

/** No unhandled rejection or uncaught exception so far: the server process did not throw. */
async function expectNoCrash(): Promise<void> {
  await settle(2);
  expect(watch.crashes).toEqual([]);
}

/** A fresh client can still connect, and gets `pong` for `ping`. */
async function expectStillServing(world: ServedWorld): Promise<void> {
  const fresh = await world.connect({ mode: 'readonly' });
  expect(await fresh.send({ type: 'ping' })).toBeUndefined();
  await fresh.close();
}

/** The model of a typed client of `world` (handshaken with the right token). */
const modelOf = (world: ServedWorld, mode: 'readonly' | 'readandwrite'): ConnectionModel => ({
  handshaken: true,
  mode,
  authenticated: true,
  token: world.server.token,
});

/** Messages that must change nothing: malformed, wrong, or commands that would run, minus id. */
const harmless: fc.Arbitrary<Wire> = fc
  .oneof(
    { weight: 3, arbitrary: messageText().map(withoutChangingId) },
    { weight: 1, arbitrary: idlessCommand().map((command) => JSON.stringify(command)) },
  )
  .filter((text) => Buffer.byteLength(text) <= MAX_MESSAGE_BYTES)
  .map(wire);

describe('the protocol, fuzzed against a live server', () => {
  it(
    'typed clients: each malformed or id-less message gets its one documented answer and changes nothing',
    async () => {
      const world = await startServedWorld(
        { codons: 3 },
        { rateLimit: UNLIMITED, maxMessageBytes: MAX_MESSAGE_BYTES },
      );
      const clients = {
        writer: [await world.connect({ mode: 'readandwrite' }), modelOf(world, 'readandwrite')],
        reader: [await world.connect({ mode: 'readonly' }), modelOf(world, 'readonly')],
      } as const;
      const runs = runsOf(world);
      const starts = world.harness.starts.length;
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(harmless, fc.constantFrom('writer', 'reader' as const)), {
              minLength: 1,
              maxLength: 10,
            }),
            async (messages) => {
              const eventsBefore = world.events.length;
              for (const [message, who] of messages) {
                const [client, model] = clients[who];
                const expected = expectedAnswer(onTheWire(message.text), model);
                const answers = await answerTo(world, client, message.text);
                expectAnswer(answers, expected, `${who}: ${message.text.slice(0, 160)}`);
              }
              // Nothing changed: runs, agent, phase; only reads (checkpoint.list) were journaled.
              expect(runsOf(world)).toBe(runs);
              expect(world.harness.starts).toHaveLength(starts);
              expect(world.runtime.phase).toBe('idle');
              const journaled = world.events.slice(eventsBefore).map((event) => event.type);
              expect(journaled.filter((type) => type !== 'checkpoint.list')).toEqual([]);
              await expectNoCrash();
            },
          ),
          fuzzSettings(25),
        );
        await expectStillServing(world);
      } finally {
        await world.dispose();
      }
    },
    fuzzTimeout(25, 2000),
  );

  it(
    'raw sockets: messages before and after the handshake, binary, fragmented, oversized, broken frames',
    async () => {
      const world = await startServedWorld(
        { codons: 2 },
        { rateLimit: UNLIMITED, maxMessageBytes: MAX_MESSAGE_BYTES },
      );
      const runs = runsOf(world);
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.boolean(),
            fc.array(rawStep(world.server.token, harmless), { minLength: 1, maxLength: 8 }),
            async (tokenAtUpgrade, steps) => {
              const headers: Record<string, string> = tokenAtUpgrade
                ? { authorization: `Bearer ${world.server.token}` }
                : {};
              const client = await rawClient(world.server.port, headers);
              try {
                await runRawSteps(world, client, tokenAtUpgrade, steps, MAX_MESSAGE_BYTES);
              } finally {
                client.destroy();
              }
              await eventually(() => world.server.clients().length === 0, 5000, 'disconnected');
              expect(runsOf(world)).toBe(runs);
              expect(world.runtime.phase).toBe('idle');
              await expectNoCrash();
            },
          ),
          fuzzSettings(25),
        );
        await expectStillServing(world);
      } finally {
        await world.dispose();
      }
    },
    fuzzTimeout(25, 2000),
  );

  it(
    'bursts beyond the rate limit: every message gets exactly one answer, in order, then service resumes',
    async () => {
      const rate = { messagesPerSecond: 400, burst: 20 };
      const world = await startServedWorld(
        { codons: 2 },
        { rateLimit: rate, maxMessageBytes: MAX_MESSAGE_BYTES },
      );
      const client = await world.connect({ mode: 'readandwrite' });
      const runs = runsOf(world);
      const ping = fc
        .constant(null)
        .map(() => wire(JSON.stringify({ id: nextMark(), type: 'ping' })));
      try {
        await fc.assert(
          fc.asyncProperty(
            // Small messages: the burst is about their number (size has its own limit).
            fc.array(
              fc.oneof(
                harmless.filter((message) => message.text.length <= 4096),
                ping,
              ),
              { minLength: rate.burst + 1, maxLength: 150 },
            ),
            async (messages) => {
              // The bucket refills in 50 ms: it is full when the burst begins.
              await new Promise((resolve) => setTimeout(resolve, 60));
              const from = client.seen.length;
              for (const message of messages) client.sendRaw(message.text);
              // Served again once the bucket has refilled: a ping a while later gets its pong.
              // The pings sent before that one are messages of the burst too (each answered).
              const { pong, before } = await servedAgain(client, from);
              const journaled = journaledIds(world);
              const answers = client.seen
                .slice(from, client.seen.indexOf(pong))
                .filter((event) => !journaled.has(event.id));
              checkBurst(
                [...messages.map((message) => message.text), ...before],
                answers,
                modelOf(world, 'readandwrite'),
                rate.burst,
              );
              expect(runsOf(world)).toBe(runs);
              await expectNoCrash();
            },
          ),
          fuzzSettings(8),
        );
        await expectStillServing(world);
      } finally {
        await world.dispose();
      }
    },
    fuzzTimeout(8, 3000),
  );

  it(
    'valid commands in any order from two clients: at most one error each, a documented code, no runtime failure',
    async () => {
      let world = await drivingWorld();
      let casesInWorld = 0;
      try {
        await fc.assert(
          fc.asyncProperty(clientSteps(), clientSteps(), async (first, second) => {
            // Recycled now and then (a world's journal and runs grow with every case), and after
            // a case that failed and left it broken, so that shrinking replays on a sound world.
            if (++casesInWorld > 30 || world.runtime.phase !== 'idle') {
              await disposeWithin(world, 5000);
              world = await drivingWorld();
              casesInWorld = 1;
            }
            const eventsBefore = world.events.length;
            const clients = [await world.connect(), await world.connect()];
            await Promise.all([
              runSteps(world, clients[0] as TestClient, first),
              runSteps(world, clients[1] as TestClient, second),
            ]);
            expect(runtimeFailures(world, eventsBefore)).toEqual([]);
            await leaveToIdle(world);
            for (const client of clients) {
              expect(await client.send({ type: 'ping' })).toBeUndefined();
              await client.close();
            }
            await expectNoCrash();
          }),
          fuzzSettings(12),
        );
        await expectStillServing(world);
      } finally {
        // The runtime is never left in a phase it cannot leave: closing it resolves.
        await world.dispose();
      }
    },
    fuzzTimeout(12, 3000),
  );

  it(
    'a shutdown among other commands: refused or answered, the runtime finishes, nothing throws',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          clientSteps(),
          clientSteps(),
          fc.constantFrom('server.shutdown', 'server.force_shutdown'),
          fc.nat({ max: 8 }),
          async (first, second, shutdown, at) => {
            // The first agent hangs: the shutdown often meets a running codon.
            const world = await drivingWorld(3, 0);
            const eventsBefore = world.events.length;
            try {
              const clients = [await world.connect(), await world.connect()] as TestClient[];
              const withShutdown = [...first];
              withShutdown.splice(Math.min(at, first.length), 0, {
                command: { type: shutdown },
                idless: false,
                pauseMs: 0,
              });
              const ids = await Promise.all([
                fireSteps(clients[0] as TestClient, withShutdown),
                fireSteps(clients[1] as TestClient, second),
              ]);
              const exit = await world.runtime.finished;
              expect(runtimeFailures(world, eventsBefore)).toEqual([]);
              expect(exit.reason).toBe(shutdown === 'server.shutdown' ? 'client request' : 'force');
              for (const [index, client] of clients.entries()) {
                expect((await client.closed).code).toBe(CLOSE_CODES.GOING_AWAY);
                expectAtMostOneErrorEach(client, ids[index] ?? [], true);
                // A graceful end tells every client before its close frame (issue 17); a forced
                // one sends nothing more.
                if (shutdown === 'server.shutdown') {
                  expect(client.seen.at(-1)?.type).toBe('info');
                  expect(client.seen.at(-1)?.data).toEqual({ message: expect.any(String) });
                }
              }
              expect(world.runtime.phase).toBe('closed');
              await expectNoCrash();
            } finally {
              await world.dispose();
            }
          },
        ),
        fuzzSettings(10),
      );
    },
    fuzzTimeout(10, 3000),
  );
});

/**
 * Sends a ping every 50 ms until one gets its pong (those that meet an empty bucket get
 * RATE_LIMITED); fails if none does within 5 s or the connection closes. Returns the pong and the
 * pings sent before the one it answers, in order (their answers come before it).
 */
async function servedAgain(
  client: TestClient,
  from: number,
): Promise<{ pong: HankweaveEvent; before: string[] }> {
  const marks: string[] = [];
  const deadline = Date.now() + 5000;
  for (;;) {
    const mark = nextMark();
    marks.push(mark);
    client.sendRaw(JSON.stringify({ id: mark, type: 'ping' }));
    try {
      const pong = await untilOpen(
        client,
        (event) =>
          event.type === 'pong' &&
          marks.includes((event.data as { replyTo?: string }).replyTo ?? ''),
        from,
        50,
      );
      const answered = marks.indexOf((pong.data as { replyTo?: string }).replyTo ?? '');
      const before = marks.slice(0, answered).map((id) => JSON.stringify({ id, type: 'ping' }));
      return { pong, before };
    } catch (error) {
      if (!/no answer/.test((error as Error).message) || Date.now() > deadline) throw error;
    }
  }
}

/** Disposes of a world a failed case may have left stuck (that case has failed already). */
async function disposeWithin(world: ServedWorld, ms: number): Promise<void> {
  await Promise.race([
    world.dispose().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, ms)),
  ]);
}

/**
 * A world of four codons whose agents take a moment, and one start in `hangEvery` (the
 * `hangFirst`, the first) hangs until stopped.
 */
function drivingWorld(hangEvery = 5, hangFirst = 3): Promise<ServedWorld> {
  return startServedWorld(
    {
      codons: 4,
      lineDelayMs: 2,
      script: (_codonId, index) =>
        index % hangEvery === hangFirst % hangEvery
          ? { hang: true }
          : { scenario: { turns: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] } },
    },
    { rateLimit: UNLIMITED },
  );
}

type Command = { type: string; data?: unknown };
interface Step {
  command: Command;
  /** Sent without an id: it must be refused and run nothing. */
  idless: boolean;
  pauseMs: number;
}

const codonIds = fc.constantFrom('a', 'b', 'c', 'd', 'zz');
const validCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ type: 'codon.next' }),
  codonIds.map((codonId) => ({ type: 'codon.start', data: { codonId } })),
  fc.constant({ type: 'codon.redo' }),
  fc.constant({ type: 'codon.skip' }),
  fc.constant({ type: 'codon.forceStop', data: { reason: 'fuzz' } }),
  fc.boolean().map((autoRestart) => ({ type: 'rollback.toLastSuccess', data: { autoRestart } })),
  fc
    .tuple(codonIds, fc.constantFrom('start', 'end', 'rig-setup', 'completed', 'error'))
    .map(([codonId, checkpointType]) => ({
      type: 'rollback.toCodon',
      data: { codonId, checkpointType },
    })),
  fc.constant({ type: 'rollback.toCheckpoint', data: { checkpointSha: 'deadbeef' } }),
  fc.constant({ type: 'checkpoint.list' }),
  fc.constant({ type: 'history.sync' }),
  fc.constant({ type: 'ping' }),
);

const clientSteps = (): fc.Arbitrary<Step[]> =>
  fc.array(
    fc.record({
      command: validCommand,
      idless: fc.nat({ max: 4 }).map((n) => n === 0),
      pauseMs: fc.constantFrom(0, 0, 1, 5, 15),
    }),
    { minLength: 1, maxLength: 8 },
  );

/** The codes a valid command may be refused with while nothing shuts down. */
const REFUSALS = new Set([
  'RUNTIME_CODON_RUNNING',
  'RUNTIME_NO_CODON_RUNNING',
  'RUNTIME_NO_MORE_CODONS',
  'RUNTIME_UNKNOWN_CODON',
  'RUNTIME_NO_CHECKPOINT',
  'ROLLBACK_IN_PROGRESS',
  // A sha that names no checkpoint (the checkpoint engine's code, passed through).
  'CHECKPOINT_NOT_FOUND',
]);

/** Runs `steps` one after the other, waiting for each answer (`send` acks with a ping). */
async function runSteps(world: ServedWorld, client: TestClient, steps: Step[]): Promise<void> {
  const ids: string[] = [];
  for (const step of steps) {
    if (step.idless) {
      const answers = await answerTo(world, client, JSON.stringify(step.command));
      expect(answers.map(codeOf), step.command.type).toEqual(['INVALID_COMMAND']);
    } else {
      const id = nextMark();
      ids.push(id);
      await client.send({ ...step.command, id } as never);
    }
    if (step.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
  }
  expectAtMostOneErrorEach(client, ids, false);
}

/** Sends `steps` without waiting for answers (the connection may close under them). */
async function fireSteps(client: TestClient, steps: Step[]): Promise<string[]> {
  const ids: string[] = [];
  for (const step of steps) {
    const id = nextMark();
    if (!step.idless) ids.push(id);
    client.sendRaw(JSON.stringify(step.idless ? step.command : { ...step.command, id }));
    if (step.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
  }
  return ids;
}

function expectAtMostOneErrorEach(client: TestClient, ids: string[], shuttingDown: boolean): void {
  const byId = new Map<string, HankweaveEvent[]>();
  for (const event of client.seen) {
    const id = (event.data as { context?: { commandId?: string } } | undefined)?.context?.commandId;
    if (event.type === 'error' && id !== undefined) byId.set(id, [...(byId.get(id) ?? []), event]);
  }
  for (const id of ids) {
    const errors = byId.get(id) ?? [];
    expect(errors.length, id).toBeLessThanOrEqual(1);
    for (const error of errors) {
      const code = codeOf(error) ?? '';
      expect(
        REFUSALS.has(code) || (shuttingDown && code === 'RUNTIME_SHUTTING_DOWN'),
        `${id}: ${code} ${(error.data as { message: string }).message}`,
      ).toBe(true);
    }
  }
}

/** Stops what runs, then waits for `idle`: every phase but `closed` must lead back there. */
async function leaveToIdle(world: ServedWorld): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (world.runtime.phase !== 'idle') {
    expect(world.runtime.phase).not.toBe('closed');
    if (Date.now() > deadline) throw new Error(`stuck in ${world.runtime.phase}`);
    if (world.runtime.phase === 'driving')
      await world.runtime.command({ type: 'codon.forceStop' }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

import fc from 'fast-check';
import { expect } from 'vitest';
import {
  expectAnswer,
  journaledIds,
  nextMark,
  onTheWire,
  withoutChangingId,
} from './fuzz-helpers.js';
import { commandLike, handshakeData, type Wire, wire } from './protocol-arbitraries.js';
import {
  type ConnectionModel,
  DOCUMENTED_CLOSE_CODES,
  type Expected,
  expectedAnswer,
  nextConnection,
} from './protocol-oracle.js';
import { clientFrame, OPCODES, type RawClient } from './raw-socket.js';
import type { ServedWorld } from './server-world.js';

/** Sequences of frames on a raw connection, for the protocol's property tests. */

/** A frame that breaks RFC 6455 (or the size limit): the server must close the connection. */
export type BrokenFrame =
  | 'unmasked'
  | 'reserved-opcode'
  | 'rsv'
  | 'orphan-continuation'
  | 'big-control'
  | 'invalid-utf8'
  | 'oversized';

/** One thing a raw client does. */
export type RawStep =
  /** A whole message, as text or binary frames, in one to three fragments. */
  | { kind: 'message'; message: Wire; binary: boolean; fragments: number }
  /** A control ping (the server answers with a control pong, which is no message). */
  | { kind: 'ping-frame' }
  | { kind: 'broken'; frame: BrokenFrame; opcode: number }
  /** A close frame (1000): the server closes too. */
  | { kind: 'close' };

/** The close code a broken frame must cause (RFC 6455 §7.4.1; `ws` sends it). */
const BROKEN_CLOSE: Record<BrokenFrame, number> = {
  unmasked: 1002,
  'reserved-opcode': 1002,
  rsv: 1002,
  'orphan-continuation': 1002,
  'big-control': 1002,
  'invalid-utf8': 1007,
  oversized: 1009,
};

/**
 * A raw step: mostly messages (`message`, handshakes with the right `token` or not, commands
 * whose every field may be wrong), sometimes a control frame, a broken frame or a close.
 */
export function rawStep(token: string, message: fc.Arbitrary<Wire>): fc.Arbitrary<RawStep> {
  const handshake = fc
    .record({
      id: fc.option(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(7)), { nil: undefined }),
      data: handshakeData(token),
    })
    .map(({ id, data }) =>
      wire(JSON.stringify({ ...(id === undefined ? {} : { id }), type: 'handshake', data })),
    );
  const anyCommand = commandLike().map((value) => wire(withoutChangingId(JSON.stringify(value))));
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({
        kind: fc.constant('message' as const),
        message: fc.oneof(
          { weight: 4, arbitrary: message },
          { weight: 2, arbitrary: handshake },
          { weight: 1, arbitrary: anyCommand },
        ),
        binary: fc.boolean(),
        fragments: fc.integer({ min: 1, max: 3 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'ping-frame' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('broken' as const),
        frame: fc.constantFrom(...(Object.keys(BROKEN_CLOSE) as BrokenFrame[])),
        opcode: fc.constantFrom(0x3, 0x4, 0x7, 0xb, 0xf),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'close' as const }) },
  );
}

/**
 * Sends `steps` on a raw connection and checks every answer against the oracle: each message
 * gets exactly its documented answer, and the connection ends only with its documented code.
 */
export async function runRawSteps(
  world: ServedWorld,
  client: RawClient,
  tokenAtUpgrade: boolean,
  steps: RawStep[],
  maxMessageBytes: number,
): Promise<void> {
  let model: ConnectionModel = {
    handshaken: false,
    mode: undefined,
    authenticated: tokenAtUpgrade,
    token: world.server.token,
  };
  const expectClosed = async (code: number, label: string) => {
    await client.until(() => false);
    expect(client.closeCode, label).toBe(code);
  };
  for (const step of steps) {
    if (step.kind === 'close') {
      client.write(clientFrame(OPCODES.close, Buffer.from([0x03, 0xe8])));
      return expectClosed(1000, 'close');
    }
    if (step.kind === 'broken') {
      client.write(brokenFrame(step.frame, step.opcode, maxMessageBytes));
      return expectClosed(BROKEN_CLOSE[step.frame], step.frame);
    }
    const from = client.messages.length;
    let expected: Expected | undefined;
    if (step.kind === 'ping-frame') client.write(clientFrame(OPCODES.ping, Buffer.from('hi')));
    else {
      expected = expectedAnswer(onTheWire(step.message.text), model, maxMessageBytes);
      for (const frame of fragmentsOf(step)) client.write(frame);
    }
    const marker = await markerAnswer(client, model, expected);
    const journaled = journaledIds(world);
    const answers = client.messages
      .slice(from, marker ?? client.messages.length)
      .filter((message) => !journaled.has((message as { id?: string }).id ?? ''));
    const label = step.kind === 'message' ? step.message.text.slice(0, 160) : step.kind;
    if (!expected) expect(answers, label).toEqual([]);
    else {
      expectAnswer(answers, expected, label);
      if (expected.kind === 'close') return expectClosed(expected.code, label);
      if (expected.kind === 'error' && expected.closes !== undefined)
        return expectClosed(expected.closes, label);
      model = nextConnection(model, expected);
    }
    if (client.ended || marker === undefined) {
      // Nothing above closes the connection: if it closed, only with a documented code.
      expect(DOCUMENTED_CLOSE_CODES.has(client.closeCode ?? -1), `closed ${client.closeCode}`).toBe(
        true,
      );
      throw new Error(`the connection closed (${client.closeCode}) after ${label}`);
    }
  }
}

/**
 * Sends a marker after a message and waits for its answer: before the handshake a
 * `HANDSHAKE_REQUIRED` error naming it, after it a `pong`. Returns the index of that answer, or
 * undefined when the connection closed first.
 */
async function markerAnswer(
  client: RawClient,
  model: ConnectionModel,
  expected: Expected | undefined,
): Promise<number | undefined> {
  const mark = nextMark();
  const handshaken = model.handshaken || expected?.kind === 'handshake';
  const from = client.messages.length;
  client.write(clientFrame(OPCODES.text, Buffer.from(JSON.stringify({ id: mark, type: 'ping' }))));
  const isMarker = (message: { type?: string; data?: unknown }) =>
    handshaken
      ? message.type === 'pong' && (message.data as { replyTo?: string }).replyTo === mark
      : message.type === 'error' &&
        (message.data as { context?: { commandId?: string } }).context?.commandId === mark;
  if (!(await client.until(isMarker, from))) return undefined;
  return client.messages.findIndex((message, at) => at >= from && isMarker(message));
}

/** The frames of a message step: one, or a first frame and continuations. */
function fragmentsOf(step: Extract<RawStep, { kind: 'message' }>): Buffer[] {
  const bytes = Buffer.from(step.message.text, 'utf8');
  const opcode = step.binary ? OPCODES.binary : OPCODES.text;
  if (step.fragments === 1 || bytes.length < step.fragments) return [clientFrame(opcode, bytes)];
  const size = Math.ceil(bytes.length / step.fragments);
  const frames: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    frames.push(
      clientFrame(
        offset === 0 ? opcode : OPCODES.continuation,
        bytes.subarray(offset, offset + size),
        { fin: offset + size >= bytes.length },
      ),
    );
  }
  return frames;
}

function brokenFrame(kind: BrokenFrame, opcode: number, maxMessageBytes: number): Buffer {
  const ping = Buffer.from(JSON.stringify({ id: 'x', type: 'ping' }));
  switch (kind) {
    case 'unmasked':
      return clientFrame(OPCODES.text, ping, { masked: false });
    case 'reserved-opcode':
      return clientFrame(opcode, ping);
    case 'rsv':
      return clientFrame(OPCODES.text, ping, { rsv: 4 });
    case 'orphan-continuation':
      return clientFrame(OPCODES.continuation, ping);
    case 'big-control':
      return clientFrame(OPCODES.ping, Buffer.alloc(126, 1));
    case 'invalid-utf8':
      return clientFrame(OPCODES.text, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    case 'oversized':
      return clientFrame(OPCODES.text, Buffer.alloc(maxMessageBytes + 1, 0x20));
  }
}

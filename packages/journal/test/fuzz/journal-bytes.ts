import type { HankweaveEvent } from '@hankweave/types';
import fc from 'fast-check';
import { parseEventLine } from '../../src/internal/parse-line.js';

// Not exported from the package: generators of journal files, and what a reader must make of them.

const NEWLINE = 0x0a;

/** Keys that name members of `Object.prototype` (or that code often looks up by habit). */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'then',
];

/** A valid event line's JSON (without newline), in one of the shapes journals hold. */
export const eventJsonArb: fc.Arbitrary<string> = fc
  .record({
    id: fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ maxLength: 12 }).map((tail) => `evt_${tail}`),
    ),
    type: fc.oneof(
      fc.constantFrom('info', 'codon.started', 'state.transition', 'agent.reflection'),
      fc.string({ minLength: 1, maxLength: 10 }),
    ),
    timestamp: fc.oneof(fc.constant('2025-01-15T14:30:00.000Z'), fc.string({ maxLength: 12 })),
    data: fc.jsonValue({ maxDepth: 3 }),
    extraKey: fc.option(fc.constantFrom(...PROTOTYPE_KEYS)),
    extra: fc.jsonValue({ maxDepth: 2 }),
  })
  .map(({ id, type, timestamp, data, extraKey, extra }) => {
    const event: Record<string, unknown> = {};
    if (id !== undefined) event.id = id;
    Object.assign(event, { type, timestamp, data });
    // An own key, even `__proto__` (assignment would set the prototype instead).
    if (extraKey !== null) {
      Object.defineProperty(event, extraKey, { value: extra, enumerable: true, writable: true });
    }
    return JSON.stringify(event);
  });

/** Bytes with no newline in them. */
const lineBytesArb = (maxLength: number): fc.Arbitrary<Buffer> =>
  fc
    .uint8Array({ maxLength })
    .map((bytes) => Buffer.from(bytes.map((byte) => (byte === NEWLINE ? 0x20 : byte))));

/** Puts invalid UTF-8 (a lone continuation byte, a cut sequence, 0xff) inside a string. */
const withBadUtf8 = (json: string, at: number, bytes: number[]): Buffer => {
  const quote = json.indexOf('"', at % json.length);
  const buffer = Buffer.from(json);
  if (quote === -1) return buffer;
  const position = Buffer.byteLength(json.slice(0, quote + 1));
  return Buffer.concat([
    buffer.subarray(0, position),
    Buffer.from(bytes),
    buffer.subarray(position),
  ]);
};

/** One complete line of a journal (with its newline), of one of many kinds. */
export const lineArb: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: eventJsonArb.map((json) => Buffer.from(`${json}\n`)) },
  {
    weight: 2,
    arbitrary: lineBytesArb(80).map((bytes) => Buffer.concat([bytes, Buffer.from('\n')])),
  },
  {
    weight: 1,
    arbitrary: fc.nat(40).map((n) => Buffer.concat([Buffer.alloc(n), Buffer.from('\n')])),
  },
  { weight: 1, arbitrary: fc.constant(Buffer.from('\n')) },
  { weight: 1, arbitrary: eventJsonArb.map((json) => Buffer.from(`${json}\r\n`)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        eventJsonArb,
        fc.nat(),
        fc.array(fc.constantFrom(0xff, 0xfe, 0x80, 0xbf, 0xc3, 0xe2, 0x82, 0xf0), {
          minLength: 1,
          maxLength: 4,
        }),
      )
      .map(([json, at, bytes]) => Buffer.concat([withBadUtf8(json, at, bytes), Buffer.from('\n')])),
  },
  {
    // A line longer than the 64 KiB window the tail reader starts with.
    weight: 1,
    arbitrary: fc
      .integer({ min: 60_000, max: 140_000 })
      .map((size) =>
        Buffer.from(
          `${JSON.stringify({ id: `evt_huge${size}`, type: 'info', timestamp: 't', data: 'x'.repeat(size) })}\n`,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 3000 })
      .map((depth) =>
        Buffer.from(
          `{"type":"info","timestamp":"t","data":${'['.repeat(depth)}${']'.repeat(depth)}}\n`,
        ),
      ),
  },
);

/** What may follow the last newline: nothing, a torn line, garbage, or a whole event. */
export const tailArb: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc
    .tuple(eventJsonArb, fc.nat())
    .map(([json, cut]) => Buffer.from(json).subarray(0, cut % json.length)),
  lineBytesArb(60),
  eventJsonArb.map((json) => Buffer.from(json)),
);

/** A whole journal file: lines and a tail, or bytes of any kind. */
export const journalBytesArb: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.array(lineArb, { maxLength: 30 }), tailArb)
      .map(([lines, tail]) => Buffer.concat([...lines, tail])),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)) },
);

/** What a reader must see in a journal file. */
export interface Expected {
  events: HankweaveEvent[];
  /** Bytes of complete lines. */
  byteLength: number;
  lines: number;
  corruptLines: number;
}

/**
 * The test's own reading of a journal file: every complete line, in order, parsed one by one.
 * `repaired`: as after a writable open, which keeps a last line without newline when it is a
 * whole event (and adds the newline) and drops it otherwise.
 */
export const expectedFrom = (bytes: Buffer, repaired: boolean): Expected => {
  const events: HankweaveEvent[] = [];
  let lines = 0;
  let corruptLines = 0;
  let start = 0;
  const take = (end: number): void => {
    const event = parseEventLine(bytes.toString('utf8', start, end), lines);
    if (event) events.push(event);
    else corruptLines += 1;
    lines += 1;
  };
  for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    take(end);
    start = end + 1;
  }
  let byteLength = start;
  if (repaired && start < bytes.length && parseEventLine(bytes.toString('utf8', start), 0)) {
    take(bytes.length);
    byteLength = bytes.length + 1;
  }
  return { events, byteLength, lines, corruptLines };
};

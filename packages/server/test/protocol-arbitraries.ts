import { CLIENT_COMMAND_TYPES, type ClientCommandType } from '@hankweave/types';
import fc from 'fast-check';

/** fast-check generators of what a hostile or broken client sends to the server. */

/** Stands for a key left out of an object. */
const MISSING = Symbol('missing');
type Maybe<T> = T | typeof MISSING;

/** A message, shown shortened when fast-check prints a counterexample. */
export interface Wire {
  readonly text: string;
}

/** Wraps `text` as a {@link Wire}. */
export function wire(text: string): Wire {
  const shown = text.length > 160 ? `${text.slice(0, 160)}… (${text.length} chars)` : text;
  return { text, [fc.toStringMethod]: () => JSON.stringify(shown) } as Wire;
}

/** A valid command id: any non-empty string. */
export const validId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 16 }),
    fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  );

/** Every way an id can be wrong: missing, null, empty, not a string. */
export const invalidId = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constant(MISSING),
    fc.constant(null),
    fc.constant(''),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
  );

const codonId = fc.constantFrom('a', 'b', 'c', 'd', 'zz', 'a#0', '');
const reason = fc.option(fc.record({ reason: fc.string({ maxLength: 20 }) }), { nil: undefined });

/** A payload the schema accepts for `type` (often; `codonId` may name no codon). */
export function validData(type: ClientCommandType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'codon.start':
      return fc.record(
        { codonId: codonId.filter((id) => id !== ''), skipPreCommands: fc.boolean() },
        { requiredKeys: ['codonId'] },
      );
    case 'codon.forceStop':
    case 'server.shutdown':
    case 'server.force_shutdown':
      return reason;
    case 'checkpoint.list':
      return fc.option(fc.record({ runId: fc.string({ maxLength: 12 }) }, { requiredKeys: [] }), {
        nil: undefined,
      });
    case 'rollback.toCheckpoint':
      return fc.record(
        { checkpointSha: fc.stringMatching(/^[0-9a-f]{4,40}$/), autoRestart: fc.boolean() },
        { requiredKeys: ['checkpointSha'] },
      );
    case 'rollback.toCodon':
      return fc.record(
        {
          codonId: codonId.filter((id) => id !== ''),
          checkpointType: fc.constantFrom('start', 'end', 'rig-setup', 'completed', 'error'),
          autoRestart: fc.boolean(),
        },
        { requiredKeys: ['codonId', 'checkpointType'] },
      );
    case 'rollback.toLastSuccess':
      return fc.option(fc.record({ autoRestart: fc.boolean() }, { requiredKeys: [] }), {
        nil: undefined,
      });
    default:
      return fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }));
  }
}

/** Any JSON value in place of a field: the wrong type for most. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, 0, -1, 1e308, '', 'x'.repeat(300), [], {}, true),
);

/** A payload with one field of the wrong type, an unknown key, or the wrong type for `data`. */
export function mutatedData(type: ClientCommandType): fc.Arbitrary<unknown> {
  return validData(type).chain((data) => {
    const keys = data !== null && typeof data === 'object' ? Object.keys(data) : [];
    return fc.oneof(
      anyValue,
      fc
        .constantFrom(
          'codonId',
          'reason',
          'runId',
          'checkpointSha',
          'autoRestart',
          '__proto__',
          'constructor',
          'valueOf',
          'codonID',
        )
        .chain((key) => anyValue.map((value) => ({ ...(data as object), [key]: value }))),
      keys.length > 0
        ? fc
            .constantFrom(...keys)
            .chain((key) => anyValue.map((value) => ({ ...(data as object), [key]: value })))
        : anyValue,
    );
  });
}

const knownType = fc.constantFrom(...CLIENT_COMMAND_TYPES);

/** A `type`: a command of the protocol mostly, else anything. */
const anyType: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: knownType },
  { weight: 1, arbitrary: fc.constant('handshake') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'CODON.NEXT') },
  { weight: 1, arbitrary: fc.string({ minLength: 101, maxLength: 400 }) },
  { weight: 1, arbitrary: fc.constantFrom(MISSING, null, 7, true, ['ping'], { type: 'ping' }) },
);

/** Builds an object, leaving out the keys whose value is {@link MISSING}. */
function objectOf(entries: Record<string, Maybe<unknown>>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value === MISSING || value === undefined) continue;
    // defineProperty: `__proto__` must be an own key, as JSON.parse makes it.
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** A command-shaped object: every field right, wrong, or missing. */
export const commandLike = (): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      id: fc.oneof(validId(), invalidId()),
      type: anyType,
      extra: fc.option(fc.constantFrom('extra', '__proto__', 'constructor', 'timestamp'), {
        nil: undefined,
      }),
    })
    .chain(({ id, type, extra }) => {
      const data: fc.Arbitrary<unknown> =
        typeof type === 'string' && (CLIENT_COMMAND_TYPES as string[]).includes(type)
          ? fc.oneof(validData(type as ClientCommandType), mutatedData(type as ClientCommandType))
          : type === 'handshake'
            ? handshakeData()
            : anyValue;
      return data.map((value) =>
        objectOf({ id, type, data: value, ...(extra ? { [extra]: 1 } : {}) }),
      );
    });

/** The `data` of a handshake: right, wrong, with a token or not. */
export const handshakeData = (token = 'not-the-token'): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.record(
      {
        mode: fc.constantFrom('readonly', 'readandwrite'),
        sendPreviousEvents: fc.boolean(),
        token: fc.constantFrom(token, 'wrong'),
      },
      { requiredKeys: ['mode'] },
    ),
    fc.record({ mode: fc.constantFrom('admin', '', 1) }),
    anyValue,
  );

/** A message as text: malformed JSON, other JSON, or a command-like object. */
export const messageText = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: commandLike().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 120 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(commandLike(), fc.nat({ max: 40 }))
        .map(([value, cut]) => JSON.stringify(value).slice(0, -1 - cut)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      // Deep nesting: parsing is fine, serialising it again (logs, errors) overflows the stack.
      arbitrary: fc
        .tuple(fc.integer({ min: 1000, max: 40_000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
        .map(([depth, open, asData]) => {
          const close = open === '[' ? ']' : '}';
          const deep = `${open.repeat(depth)}1${close.repeat(depth)}`;
          return asData ? `{"id":"deep","type":"ping","data":${deep}}` : deep;
        }),
    },
  );

/**
 * A command that would run if it had an id: a known type with a valid payload. The fuzz tests
 * send it without one (every way), and it must not run.
 */
export const idlessCommand = (): fc.Arbitrary<Record<string, unknown>> =>
  knownType.chain((type) =>
    fc
      .tuple(invalidId(), validData(type))
      .map(([id, data]) => objectOf({ id, type, data: data ?? MISSING })),
  );

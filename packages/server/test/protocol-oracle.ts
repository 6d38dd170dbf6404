import {
  CLIENT_COMMAND_TYPES,
  type ClientCommandType,
  clientCommandSchema,
  handshakeSchema,
} from '@hankweave/types';

/**
 * What the protocol promises for one message, written from the tables of src/server/README.md
 * (not from the server's code), so the fuzz tests compare the server with its documentation.
 */

/** What the server knows of a connection when a message arrives. */
export interface ConnectionModel {
  handshaken: boolean;
  mode: 'readonly' | 'readandwrite' | undefined;
  /** The token came at the upgrade. */
  authenticated: boolean;
  /** The server's token, to judge a token in the handshake. */
  token: string;
}

/**
 * What the server must send in answer to `text` when it arrives over the rate limit: one
 * `RATE_LIMITED` error naming it as any error does (README: every message gets exactly one answer).
 */
export function rateLimitedAnswer(text: string): Expected {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: 'error', code: 'RATE_LIMITED' };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return { kind: 'error', code: 'RATE_LIMITED' };
  const context = contextOf(message as Record<string, unknown>);
  return {
    kind: 'error',
    code: 'RATE_LIMITED',
    ...(Object.keys(context).length > 0 ? { context } : {}),
  };
}

/** The answer a message must get. */
export type Expected =
  /** Exactly one `error` with this code and context, nothing else; `closes` follows it. */
  | {
      kind: 'error';
      code: string;
      context?: { commandId?: string; commandType?: string };
      closes?: number;
    }
  /** A successful handshake: `handshake.response`, then `server.ready` (and maybe `server.idle`). */
  | { kind: 'handshake'; mode: 'readonly' | 'readandwrite' }
  /** A valid command: the protocol lets it through; the runtime answers with at most one error. */
  | { kind: 'command'; type: ClientCommandType; id: string }
  /** No answer: the connection is closed with this code (a message over `maxMessageBytes`). */
  | { kind: 'close'; code: number };

const COMMAND_TYPES = new Set<string>(CLIENT_COMMAND_TYPES);
/**
 * The commands a read-only client may send: reference §3.1's list, written out here rather than
 * imported, so the oracle checks the server against the reference. `ping.broadcast` is not among
 * them; `server.shutdown` and `server.force_shutdown` are left out on purpose (README: a
 * read-only client cannot stop a server).
 */
const READ_ONLY = new Set<string>(['checkpoint.list', 'ping', 'history.sync']);
/** How much of a `type` the error context repeats (README: the type, when it is a string). */
const ECHOED_TYPE = 100;

/** A close code the README documents (its table, plus `ws`'s own 1002 and 1007). */
export const DOCUMENTED_CLOSE_CODES: ReadonlySet<number> = new Set([
  1000, 1001, 1002, 1007, 1009, 4001, 4002, 4008,
]);

/**
 * What the server must answer to `text` (a whole message, decoded as UTF-8) in `connection`, when
 * messages may hold up to `maxMessageBytes` bytes.
 */
export function expectedAnswer(
  text: string,
  connection: ConnectionModel,
  maxMessageBytes = Number.POSITIVE_INFINITY,
): Expected {
  if (Buffer.byteLength(text, 'utf8') > maxMessageBytes) return { kind: 'close', code: 1009 };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: 'error', code: 'INVALID_JSON' };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return { kind: 'error', code: 'INVALID_COMMAND' };
  const { type } = message as { type?: unknown };
  const context = contextOf(message as Record<string, unknown>);
  const error = (code: string, closes?: number): Expected => ({
    kind: 'error',
    code,
    ...(Object.keys(context).length > 0 ? { context } : {}),
    ...(closes !== undefined ? { closes } : {}),
  });
  if (typeof type !== 'string') return error('INVALID_COMMAND');
  if (type === 'handshake') {
    if (connection.handshaken) return error('ALREADY_HANDSHAKEN');
    const parsed = handshakeSchema.safeParse(message);
    if (!parsed.success) return error('HANDSHAKE_INVALID');
    const token = parsed.data.data.token;
    const authorised = token !== undefined ? token === connection.token : connection.authenticated;
    if (!authorised) return error('UNAUTHORIZED', 4001);
    return { kind: 'handshake', mode: parsed.data.data.mode };
  }
  if (context.commandId === undefined) return error('INVALID_COMMAND');
  if (!connection.handshaken) return error('HANDSHAKE_REQUIRED');
  if (!COMMAND_TYPES.has(type)) return error('UNKNOWN_COMMAND');
  // The format before the mode (reference §3.1: the original's schema check comes first).
  if (!clientCommandSchema.safeParse(message).success) return error('RUNTIME_BAD_COMMAND');
  if (connection.mode !== 'readandwrite' && !READ_ONLY.has(type))
    return error('INSUFFICIENT_PERMISSIONS');
  return { kind: 'command', type: type as ClientCommandType, id: context.commandId };
}

/** The context an error names: the message's id when valid, its type when a string. */
function contextOf(message: Record<string, unknown>): { commandId?: string; commandType?: string } {
  const { id, type } = message;
  const context: { commandId?: string; commandType?: string } = {};
  if (typeof id === 'string' && id.length > 0) context.commandId = id;
  if (typeof type === 'string') context.commandType = type.slice(0, ECHOED_TYPE);
  return context;
}

/** The connection after a message with that expectation. */
export function nextConnection(connection: ConnectionModel, expected: Expected): ConnectionModel {
  return expected.kind === 'handshake'
    ? { ...connection, handshaken: true, mode: expected.mode }
    : connection;
}

/** True when the command changes something (it would run in a read-write connection). */
export const isChanging = (type: string): boolean =>
  COMMAND_TYPES.has(type) && !READ_ONLY.has(type);

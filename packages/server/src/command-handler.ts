import type { CommandResult, RuntimeCommand, RuntimePort } from '@hankweave/runtime';
import {
  CLIENT_COMMAND_TYPES,
  type ClientCommandType,
  clientCommandSchema,
  HankweaveError,
  type HankweaveEvent,
  READ_ONLY_COMMAND_TYPES,
} from '@hankweave/types';
import type { Connection } from './connection.js';
import { streamHistory } from './history-sync.js';
import { type ErrorContext, targetedEvent, wireErrorOf } from './wire.js';

const COMMAND_TYPES = new Set<string>(CLIENT_COMMAND_TYPES);
const READ_ONLY = new Set<string>(READ_ONLY_COMMAND_TYPES);

/**
 * Runs one command of a client (the connection has checked that it is an object with a string `type`
 * and a string `id`; `context` names both). The guards of the wire live here, in the original's
 * order (reference §3.1): handshake, then the command's format (type and payload), then the
 * client's mode. The runtime's own guards are those of `runtime.command()`, the one implementation
 * the in-process API uses too (it checks the payload again, for in-process callers). Only the delivery
 * of `pong` and `history.batch`, which the runtime cannot address, is done here.
 */
export async function handleCommand(
  connection: Connection,
  message: { type: string; id: string; data?: unknown },
  context: ErrorContext,
): Promise<void> {
  if (connection.state === 'awaiting-handshake') {
    connection.sendError(
      'HANDSHAKE_REQUIRED',
      'Handshake required before sending commands',
      context,
    );
    return;
  }
  if (!COMMAND_TYPES.has(message.type)) {
    connection.sendError(
      'UNKNOWN_COMMAND',
      `Unknown command type: ${message.type.slice(0, 100)}`,
      context,
    );
    return;
  }
  const type = message.type as ClientCommandType;
  // The format before the mode, as the original (its zod parse comes first): a malformed command
  // gets the same answer from a read-only client as from a writer.
  const parsed = clientCommandSchema.safeParse(message);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(command)'}: ${issue.message}`)
      .join('; ');
    // Bounded: the issues of a hostile payload may name any number of keys.
    connection.sendError(
      'RUNTIME_BAD_COMMAND',
      `Invalid command format: ${issues.slice(0, 2000)}`,
      context,
    );
    return;
  }
  if (connection.mode !== 'readandwrite' && !READ_ONLY.has(type)) {
    connection.sendError(
      'INSUFFICIENT_PERMISSIONS',
      `A read-only client cannot send ${type}`,
      context,
    );
    return;
  }
  let result: CommandResult;
  try {
    result = await connection.host.runtime.command(message as RuntimeCommand);
  } catch (error) {
    const { code, message: text } = failureOf(connection.host.runtime, error, type);
    connection.sendError(code, text, context);
    return;
  }
  const data = result.data as { message: string; timestamp: string } | undefined;
  if (type === 'ping' && data) {
    // `replyTo` (our addition) lets a client match the pong to its ping.
    connection.send(
      targetedEvent('pong', {
        ...data,
        ...(context.commandId ? { replyTo: context.commandId } : {}),
      }),
    );
  } else if (type === 'ping.broadcast' && data) {
    connection.host.sendToAll(targetedEvent('pong', { ...data, clientId: connection.id }));
  } else if (type === 'history.sync') {
    const { events } = result.data as { events: AsyncIterable<HankweaveEvent> };
    try {
      await streamHistory(
        events,
        connection.host.options.historyBatchBytes,
        async (batch, hasMore) => {
          if (!(await connection.waitForRoom())) return false;
          return connection.send(targetedEvent('history.batch', { events: batch, hasMore }), {
            paced: true,
          });
        },
      );
    } catch (error) {
      const { code, message: text } = failureOf(connection.host.runtime, error, type);
      connection.sendError(code, text, context);
    }
  }
}

/**
 * The wire error of a command that failed. A read that meets a store the shutdown has just closed
 * (`JOURNAL_CLOSED`, the state store's "is closed", ...) gets `RUNTIME_SHUTTING_DOWN`, as a
 * changing command does: one code tells the client the runtime is going away. The runtime's own
 * answers (bad payload, refusals) keep their code.
 */
function failureOf(
  runtime: RuntimePort,
  error: unknown,
  type: ClientCommandType,
): { code: string; message: string } {
  const failure = wireErrorOf(error);
  const stopping = runtime.phase === 'stopping' || runtime.phase === 'closed';
  if (!stopping || isRuntimeError(error)) return failure;
  return {
    code: 'RUNTIME_SHUTTING_DOWN',
    message: `Cannot complete ${type}: the runtime is shutting down (${failure.message})`,
  };
}

/**
 * `RuntimeError.is(error)` without loading the runtime (the server imports only its types): the
 * same test, a hankweave error's brand and the class name.
 */
function isRuntimeError(error: unknown): boolean {
  return HankweaveError.is(error) && error.name === 'RuntimeError';
}

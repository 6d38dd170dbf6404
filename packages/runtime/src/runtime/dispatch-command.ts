import {
  type ClientCommand,
  clientCommandSchema,
  createEventId,
  type HankweaveEvent,
} from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import { listCheckpoints } from './checkpoint-list.js';
import type { HankweaveRuntime } from './hankweave-runtime.js';
import { emit } from './runtime-context.js';

/** A client command, as in the protocol (reference §3.2); `id` is optional in process. */
export type RuntimeCommand = ClientCommand extends infer C
  ? C extends { id: string }
    ? Omit<C, 'id'> & { id?: string }
    : never
  : never;

/** What `command()` answers. Events caused by the command arrive through `on()`. */
export interface CommandResult {
  type: RuntimeCommand['type'];
  data?: unknown;
}

/**
 * Runs one protocol command against a runtime: the single implementation behind
 * `runtime.command()` and the WebSocket server. The payload is checked against its schema, then
 * the runtime's phase decides whether the command may run (`HankweaveRuntime.admit`).
 *
 * @throws {RuntimeError} RUNTIME_BAD_COMMAND for a malformed command; the phase refusals
 *   (RUNTIME_NOT_STARTED, RUNTIME_CODON_RUNNING, RUNTIME_ROLLBACK_IN_PROGRESS,
 *   RUNTIME_SHUTTING_DOWN); RUNTIME_NO_CODON_RUNNING, RUNTIME_NO_MORE_CODONS,
 *   RUNTIME_NO_CHECKPOINT for commands that find nothing to act on.
 */
export async function dispatchCommand(
  runtime: HankweaveRuntime,
  input: RuntimeCommand,
): Promise<CommandResult> {
  const result = await runCommand(runtime, input);
  // A command answers after the events it caused are published (they wait for the state they
  // report to be durable): whoever awaits it has seen `rollback.completed` and the like.
  await runtime.settled();
  return result;
}

async function runCommand(
  runtime: HankweaveRuntime,
  input: RuntimeCommand,
): Promise<CommandResult> {
  const parsed = clientCommandSchema.safeParse({ ...input, id: input.id ?? createEventId() });
  if (!parsed.success) {
    throw new RuntimeError(
      'RUNTIME_BAD_COMMAND',
      `Invalid command: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(command)'}: ${issue.message}`).join('; ')}`,
      { cause: parsed.error },
    );
  }
  const command = parsed.data;
  runtime.admit(command.type);
  switch (command.type) {
    case 'codon.start':
      runtime.startCodon({
        codonId: command.data.codonId,
        ...(command.data.skipPreCommands !== undefined
          ? { skipPreCommands: command.data.skipPreCommands }
          : {}),
      });
      return { type: command.type, data: { codonId: command.data.codonId } };
    case 'codon.next': {
      const next = runtime.nextCodonId();
      if (!next) throw new RuntimeError('RUNTIME_NO_MORE_CODONS', 'No more codons to run');
      runtime.startCodon({ codonId: next, single: true });
      return { type: command.type, data: { codonId: next } };
    }
    case 'codon.redo': {
      const latest = latestThreadCodon(runtime);
      if (!latest) {
        throw new RuntimeError('RUNTIME_NO_MORE_CODONS', 'No codon has run yet; use codon.next');
      }
      runtime.startCodon({ codonId: latest });
      return { type: command.type, data: { codonId: latest } };
    }
    case 'codon.skip':
      return {
        type: command.type,
        data: { codonId: await runtime.stopActive('skip', { expected: command.data?.codonId }) },
      };
    case 'codon.forceStop':
      return {
        type: command.type,
        data: {
          codonId: await runtime.stopActive('forceStop', {
            reason: command.data?.reason,
            expected: command.data?.codonId,
          }),
        },
      };
    case 'server.shutdown':
      void runtime.shutdown('client request');
      return { type: command.type };
    case 'server.force_shutdown':
      void runtime.forceShutdown();
      return { type: command.type };
    case 'checkpoint.list': {
      const data = await listCheckpoints(runtime.context, command.data?.runId);
      emit(runtime.context, 'checkpoint.list', data);
      return { type: command.type, data };
    }
    case 'rollback.toLastSuccess':
      return {
        type: command.type,
        data: await runtime.rollback({ kind: 'last-success' }, command.data?.autoRestart ?? false),
      };
    case 'rollback.toCodon':
      return {
        type: command.type,
        data: await runtime.rollback(
          {
            kind: 'codon',
            codonId: command.data.codonId,
            checkpointType: command.data.checkpointType,
          },
          command.data.autoRestart ?? false,
        ),
      };
    case 'rollback.toCheckpoint':
      return {
        type: command.type,
        data: await runtime.rollback(
          { kind: 'checkpoint', sha: command.data.checkpointSha },
          command.data.autoRestart ?? false,
        ),
      };
    case 'ping':
    case 'ping.broadcast':
      return { type: command.type, data: { message: 'pong', timestamp: new Date().toISOString() } };
    case 'history.sync':
      return {
        type: command.type,
        data: { events: runtime.history() as AsyncIterable<HankweaveEvent> },
      };
  }
}

function latestThreadCodon(runtime: HankweaveRuntime): string | undefined {
  const state = runtime.getState();
  for (const run of state.runs) {
    const last = run.codons.at(-1);
    if (last) return last.codonId;
  }
  return undefined;
}

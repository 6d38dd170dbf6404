import {
  type ClientCommand,
  clientCommandSchema,
  createEventId,
  type HankweaveEvent,
  type HankweaveState,
} from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import type { EventListener } from '../events/event-bus.js';
import { type HankweaveServer, startWebSocketServer } from '../server/index.js';
import { listCheckpoints } from './checkpoint-list.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import { HankweaveRuntime, type RuntimeExit } from './hankweave-runtime.js';
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

/** A runtime embedded in a Node service. */
export interface Runtime {
  /** Opens the execution and, with autostart, starts running codons. */
  start(): Promise<void>;
  /**
   * Runs a protocol command (the same commands the WebSocket server accepts).
   * @throws {RuntimeError} RUNTIME_BAD_COMMAND for a malformed command, and the guard codes
   *   (RUNTIME_CODON_RUNNING, RUNTIME_NO_CODON_RUNNING, RUNTIME_NO_MORE_CODONS,
   *   RUNTIME_ROLLBACK_IN_PROGRESS, RUNTIME_NO_CHECKPOINT, RUNTIME_NOT_STARTED).
   */
  command(command: RuntimeCommand): Promise<CommandResult>;
  /** Every journaled event, in order; returns the unsubscribe function. */
  on(listener: EventListener): () => void;
  getState(): HankweaveState;
  /** The execution directory (after `start()`). */
  readonly executionDir: string;
  /** Resolves once, when the runtime has shut down, with the exit code (reference §2.6). */
  readonly finished: Promise<RuntimeExit>;
  /** Graceful shutdown; a second call forces. */
  close(): Promise<RuntimeExit>;
  /** The underlying orchestrator, for adapters (the WebSocket server). */
  readonly runtime: HankweaveRuntime;
  /** The WebSocket server, when `server` was set (after `start()`). */
  readonly server: HankweaveServer | undefined;
}

/**
 * Creates a runtime for one hank and one data source. No process-wide side effects: no signal
 * handlers and no `process.exit` (the CLI adds those).
 */
export function createRuntime(options: CreateRuntimeOptions): Runtime {
  const runtime = new HankweaveRuntime(options);
  let server: HankweaveServer | undefined;
  return {
    start: async () => {
      await runtime.start();
      // The server needs an open execution; events before it listens reach clients through
      // `sendPreviousEvents` or `history.sync`.
      if (options.server) {
        server = await startWebSocketServer(runtime, options.server === true ? {} : options.server);
      }
    },
    command: (command) => dispatchCommand(runtime, command),
    on: (listener) => runtime.on(listener),
    getState: () => runtime.getState(),
    get executionDir() {
      return runtime.context.layout.executionDir;
    },
    finished: runtime.finished,
    close: () => runtime.shutdown('client request'),
    runtime,
    get server() {
      return server;
    },
  };
}

const MUTATING = new Set([
  'codon.start',
  'codon.next',
  'codon.skip',
  'codon.redo',
  'codon.forceStop',
  'rollback.toCheckpoint',
  'rollback.toCodon',
  'rollback.toLastSuccess',
]);

/**
 * Runs one protocol command against a runtime: the single implementation behind
 * `runtime.command()` and the WebSocket server.
 *
 * @throws {RuntimeError} as {@link Runtime.command} does.
 */
export async function dispatchCommand(
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
  if (!runtime.started)
    throw new RuntimeError('RUNTIME_NOT_STARTED', `Cannot run ${command.type} before start()`, {});
  if (runtime.rollingBack && MUTATING.has(command.type)) {
    throw new RuntimeError(
      'RUNTIME_ROLLBACK_IN_PROGRESS',
      `Cannot run ${command.type} during a rollback`,
      {},
    );
  }
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
      if (runtime.busy)
        throw new RuntimeError(
          'RUNTIME_CODON_RUNNING',
          'Cannot start next codon while current codon is running',
          {},
        );
      const next = runtime.nextCodonId();
      if (!next) throw new RuntimeError('RUNTIME_NO_MORE_CODONS', 'No more codons to run', {});
      runtime.startCodon({ codonId: next, single: true });
      return { type: command.type, data: { codonId: next } };
    }
    case 'codon.redo': {
      if (runtime.busy)
        throw new RuntimeError('RUNTIME_CODON_RUNNING', 'Cannot redo while a codon is running', {});
      const latest = latestThreadCodon(runtime);
      if (!latest)
        throw new RuntimeError(
          'RUNTIME_NO_MORE_CODONS',
          'No codon has run yet; use codon.next',
          {},
        );
      runtime.startCodon({ codonId: latest });
      return { type: command.type, data: { codonId: latest } };
    }
    case 'codon.skip':
      return { type: command.type, data: { codonId: await runtime.stopActive('skip') } };
    case 'codon.forceStop':
      return {
        type: command.type,
        data: { codonId: await runtime.stopActive('forceStop', command.data?.reason) },
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

import { resolve } from 'node:path';
import type { HankweaveState } from '@hankweave/types';
import type { EventListener } from '../events/event-bus.js';
import { withReplay } from '../replay/with-replay.js';
import type { Containment } from '../sandbox/containment.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import { type CommandResult, dispatchCommand, type RuntimeCommand } from './dispatch-command.js';
import type { RuntimeExit, ShutdownReason } from './exit-code.js';
import { HankweaveRuntime } from './hankweave-runtime.js';
import type { RuntimePhase } from './phase.js';
import type { RuntimePort } from './runtime-port.js';

/** How to stop a runtime: gracefully with a reason, or at once. */
export interface CloseOptions {
  /** Why (reported in `finished` and the exit code; default `client request`). */
  reason?: ShutdownReason;
  /** Kill the agent without a checkpoint and close at once (exit code 1). */
  force?: boolean;
}

/**
 * A runtime embedded in a Node service. It has no network server inside: serve it over
 * WebSocket with `startWebSocketServer(runtime, options)` from `@hankweave/server`, which uses
 * only the members of {@link RuntimePort}.
 */
export interface Runtime extends RuntimePort {
  /**
   * Opens the execution and, with autostart, starts running codons.
   * @throws {RuntimeError} RUNTIME_ALREADY_STARTED on a second call, RUNTIME_INVALID_HANK and
   *   the execution-directory codes; StateError STATE_LOCKED when another process runs it.
   */
  start(): Promise<void>;
  /**
   * Runs a protocol command (the same commands the WebSocket server accepts).
   * @throws {RuntimeError} RUNTIME_BAD_COMMAND for a malformed command, and the codes of the
   *   current phase's refusals (RUNTIME_NOT_STARTED, RUNTIME_CODON_RUNNING,
   *   RUNTIME_ROLLBACK_IN_PROGRESS, RUNTIME_SHUTTING_DOWN) and of the command
   *   (RUNTIME_NO_CODON_RUNNING, RUNTIME_NO_MORE_CODONS, RUNTIME_NO_CHECKPOINT,
   *   RUNTIME_UNKNOWN_CODON).
   */
  command(command: RuntimeCommand): Promise<CommandResult>;
  /** Every journaled event, in order; returns the unsubscribe function. */
  on(listener: EventListener): () => void;
  getState(): HankweaveState;
  /** The execution directory (after `start()`). */
  readonly executionDir: string;
  /** Where the runtime is in its life: `new`, `starting`, `idle`, `driving`, `rolling-back`, `stopping`, `closed`. */
  readonly phase: RuntimePhase;
  /** Resolves once, when the runtime has shut down, with the exit code (reference §2.6). */
  readonly finished: Promise<RuntimeExit>;
  /**
   * Graceful shutdown; while one is under way, a second call (other than `force`) forces.
   * Resolves with how the runtime ended.
   */
  close(options?: CloseOptions): Promise<RuntimeExit>;
  /** The containment of this run (the OS sandbox, or none and why); undefined before `start()`. */
  readonly containment: Containment | undefined;
}

/**
 * Creates a runtime for one hank and one data source. No process-wide side effects: no signal
 * handlers and no `process.exit` (the CLI adds those).
 */
export function createRuntime(options: CreateRuntimeOptions): Runtime {
  const runtime = new HankweaveRuntime(withReplay(options));
  return {
    // Async, so a second call rejects (RUNTIME_ALREADY_STARTED) instead of throwing.
    start: async () => {
      await runtime.start();
    },
    command: (command) => dispatchCommand(runtime, command),
    on: (listener) => runtime.on(listener),
    getState: () => runtime.getState(),
    get executionDir() {
      return runtime.context.layout.executionDir;
    },
    get phase() {
      return runtime.phase;
    },
    finished: runtime.finished,
    close: (closeOptions = {}) =>
      closeOptions.force
        ? runtime.forceShutdown()
        : runtime.shutdown(closeOptions.reason ?? 'client request'),
    get containment() {
      return runtime.phase === 'new' || runtime.phase === 'starting'
        ? undefined
        : runtime.containment;
    },
    drainEvents: () => runtime.drainEvents(),
    recentEvents: (limit) => runtime.recentEvents(limit),
    updateLock: (fields) => runtime.updateLock(fields),
    get layout() {
      return runtime.context.layout;
    },
    get dataPath() {
      return resolve(runtime.options.dataPath);
    },
    get outputDirectory() {
      return runtime.settings.outputDirectory;
    },
    get autostart() {
      return runtime.settings.autostart;
    },
    get log() {
      return runtime.context.log;
    },
  };
}

export type { CommandResult, RuntimeCommand } from './dispatch-command.js';

import type { RecentEvents } from '@hankweave/journal';
import type { EventListener } from '../events/event-bus.js';
import type { RuntimeLogger } from '../events/server-log.js';
import type { ExecutionLayout } from '../execution/layout.js';
import type { CommandResult, RuntimeCommand } from './dispatch-command.js';
import type { RuntimeExit } from './exit-code.js';
import type { RuntimePhase } from './phase.js';

/** The fields a network adapter announces in `runtime.lock` (where clients find it). */
export interface AdapterLockFields {
  port?: number;
  host?: string;
  token?: string;
}

/**
 * What a network adapter may use of a runtime: the narrow port `@hankweave/server`'s
 * `startWebSocketServer(port, options)` runs over, and that every {@link Runtime} implements.
 * Adapters reach the runtime only through these members (the same commands as in process, the
 * journaled events, the phase), so an adapter is never a second implementation of anything, and
 * its tests can run against a small fake. The runtime itself never imports an adapter.
 *
 * Every member that reads the execution throws `RuntimeError` RUNTIME_NOT_STARTED until
 * `start()` has opened it.
 */
export interface RuntimePort {
  /** Where the runtime is in its life; commands are admitted or refused by phase. */
  readonly phase: RuntimePhase;
  /** Resolves once, when the runtime has shut down, with its exit code and reason. */
  readonly finished: Promise<RuntimeExit>;
  /**
   * Runs a protocol command: the one implementation behind the in-process API and the wire.
   * @throws {RuntimeError} RUNTIME_BAD_COMMAND, the phase refusals and the command's own codes
   *   (see `Runtime.command`).
   */
  command(command: RuntimeCommand): Promise<CommandResult>;
  /** Every journaled event, in order, as it is published; returns the unsubscribe function. */
  on(listener: EventListener): () => void;
  /**
   * Resolves once every event emitted before the call is published and in the journal. A new
   * client's history is read after it, so the live events continue that history without a gap.
   */
  drainEvents(): Promise<void>;
  /**
   * The newest `limit` journaled events (oldest first) and the journal's total, as the journal
   * holds them now (call {@link drainEvents} first for the events already emitted). Apart from the
   * wait, so a reader can size `limit` by what arrived meanwhile.
   * @throws {JournalError} JOURNAL_CLOSED once the runtime has closed its journal.
   */
  recentEvents(limit: number): Promise<RecentEvents>;
  /** Adds fields to `runtime.lock` (mode 0600): the adapter's port, host and token. */
  updateLock(fields: AdapterLockFields): Promise<void>;
  /** Every path of the open execution (`websocket.log` among them). */
  readonly layout: ExecutionLayout;
  /** The data source, as an absolute path. */
  readonly dataPath: string;
  /** Where completed codons' output files are copied (absolute), when the run has one. */
  readonly outputDirectory: string | undefined;
  /** Whether codons start on their own; without it an idle runtime waits for commands. */
  readonly autostart: boolean;
  /** The execution's `server.log` (and the logger passed to `createRuntime`). */
  readonly log: RuntimeLogger;
}

import type { RecentEvents } from '@hankweave/journal';
import { executionThread } from '@hankweave/state';
import type { ClientCommandType, HankweaveEvent, HankweaveState } from '@hankweave/types';
import type { BudgetHalt } from '../budget/budget-gate.js';
import { CheckpointHint } from '../codon/checkpoint-hint.js';
import { RuntimeError } from '../errors.js';
import type { EventListener } from '../events/event-bus.js';
import type { RollbackRequest } from '../rollback/resolve-target.js';
import type { Containment } from '../sandbox/containment.js';
import {
  type ActiveCodon,
  firstActive,
  stopActiveCodon,
  stopForShutdown,
} from './active-codons.js';
import { closeExecution } from './close-execution.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import { type DriveHost, type DriveRequest, driveCodons } from './drive-codons.js';
import { requirePlanEntry } from './execute-codon.js';
import { computeExitCode, type RuntimeExit, type ShutdownReason } from './exit-code.js';
import { loadHank, type OpenExecution, openExecution } from './open-execution.js';
import { type RuntimePhase, refusalMessage, refusalOf } from './phase.js';
import { type RollbackResult, rollBack } from './roll-back.js';
import { emit, type RuntimeContext, type RuntimeSettings, reportError } from './runtime-context.js';
import { settingsFromOptions } from './settings-from-options.js';
import { announceReady, recoverOnStart } from './start-execution.js';

export type { DriveRequest } from './drive-codons.js';
export type { RollbackResult } from './roll-back.js';

/** Shutdown reasons the runtime gives itself: a second one does not force. */
const SELF_REASONS: ReadonlySet<ShutdownReason> = new Set([
  'all codons completed',
  'codon failure',
  'budget exceeded',
  'budget failure',
]);

/**
 * The orchestrator: opens the execution, recovers from crashes, runs codons in plan order (or on
 * command), applies failure policies, rolls back and shuts down. Its life is one
 * {@link RuntimePhase} at a time (see `phase.ts` for the diagram and for which commands each
 * phase accepts). No process-wide side effects: no signal handlers, no `process.exit`;
 * `finished` says how it ended.
 */
export class HankweaveRuntime {
  readonly settings: RuntimeSettings;
  readonly finished: Promise<RuntimeExit>;
  #resolveFinished!: (exit: RuntimeExit) => void;
  #phase: RuntimePhase = 'new';
  #exec: OpenExecution | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #hint = new CheckpointHint();
  /** A rig-setup rollback target: that codon's next run skips its rig. */
  #skipRigOf: string | undefined;
  // Work in flight, awaited by whoever must wait for it (a shutdown, a rollback's caller).
  #startup: Promise<void> | undefined;
  #drive: Promise<void> | undefined;
  /** The codons running now: one, or one per branch of a parallel block. */
  readonly #active = new Set<ActiveCodon>();
  #closing: Promise<RuntimeExit> | undefined;
  /** Aborted when the runtime begins to stop: cuts retry pauses short. */
  readonly #stopSignal = new AbortController();

  constructor(readonly options: CreateRuntimeOptions) {
    this.settings = settingsFromOptions(options);
    this.finished = new Promise((resolve) => {
      this.#resolveFinished = resolve;
    });
  }

  /** Where the runtime is in its life. */
  get phase(): RuntimePhase {
    return this.#phase;
  }

  /** The open execution's shared context (once `start()` has opened it). */
  get context(): RuntimeContext {
    if (!this.#exec) {
      throw new RuntimeError(
        'RUNTIME_NOT_STARTED',
        'The runtime has not opened its execution yet; await start() first',
      );
    }
    return this.#exec.context;
  }

  /** The containment of this run, once the execution is open. */
  get containment(): Containment | undefined {
    return this.#exec?.context.containment;
  }

  /** The id of the codon running now (the first started, when a parallel block runs several). */
  get activeCodonId(): string | undefined {
    return firstActive(this.#active)?.control.codonId;
  }

  /** The ids of every codon running now, in the order they started. */
  get activeCodonIds(): string[] {
    return [...this.#active].map((active) => active.control.codonId);
  }

  /**
   * Throws the refusal of `command` in the current phase (see `phase.ts`), if any: every command,
   * in process or over WebSocket, passes here first.
   *
   * @throws {RuntimeError} RUNTIME_NOT_STARTED, RUNTIME_CODON_RUNNING,
   *   RUNTIME_ROLLBACK_IN_PROGRESS, RUNTIME_SHUTTING_DOWN
   */
  admit(command: ClientCommandType): void {
    const refusal = refusalOf(this.#phase, command);
    if (refusal) {
      throw new RuntimeError(refusal, refusalMessage(refusal, command), {
        details: { command, phase: this.#phase },
      });
    }
  }

  /** Subscribes to every journaled event, in order. Returns the unsubscribe function. */
  on(listener: EventListener): () => void {
    this.#listeners.add(listener);
    const off = this.#exec?.context.bus.subscribe(listener);
    return () => {
      this.#listeners.delete(listener);
      off?.();
    };
  }

  getState(): HankweaveState {
    return this.context.store.state;
  }

  /** Adds fields to `runtime.lock` (the WebSocket server's `port`, `host` and `token`). */
  async updateLock(fields: {
    port?: number;
    host?: string;
    token?: string;
    proxyPort?: number;
  }): Promise<void> {
    await this.#exec?.lock.update(fields);
  }

  /** Resolves once every event emitted so far is published and in the journal (`RuntimePort`). */
  async drainEvents(): Promise<void> {
    await this.context.bus.drain();
  }

  /** The newest `limit` journaled events and the journal's total, as they are now (`RuntimePort`). */
  recentEvents(limit: number): Promise<RecentEvents> {
    return this.context.journal.getMostRecentEvents(limit);
  }

  /** Resolves once every event emitted so far is published (see `EventBus`). */
  async settled(): Promise<void> {
    await this.#exec?.context.bus.settled();
  }

  /** Events of the journal, for `history.sync` and late subscribers. */
  history(): AsyncIterable<HankweaveEvent> {
    return this.context.journal.getAllEvents() as AsyncIterable<HankweaveEvent>;
  }

  // ---- start ----------------------------------------------------------------------------------

  /**
   * Loads and validates the hank, opens the execution (lock, checkpoints, state, journal), marks
   * crashed runs, rolls back to the last success when the last run failed, and opens this run.
   * With autostart, codons start running in the background. A start that fails before the
   * execution is open leaves the runtime closed (`finished` gives exit code 1, reason `error`).
   *
   * @throws {RuntimeError} RUNTIME_ALREADY_STARTED on a second call; RUNTIME_INVALID_HANK and the
   *   execution-directory codes; StateError STATE_LOCKED when another live process holds it.
   */
  start(): Promise<void> {
    if (this.#phase !== 'new') {
      throw new RuntimeError(
        'RUNTIME_ALREADY_STARTED',
        'start() was already called on this runtime; create a new runtime to start again',
        { details: { phase: this.#phase } },
      );
    }
    this.#phase = 'starting';
    this.#startup = this.#start();
    return this.#startup;
  }

  async #start(): Promise<void> {
    try {
      const hank = loadHank(this.options);
      this.#exec = await openExecution(this.options, hank, this.settings);
    } catch (error) {
      if (this.#phase === 'starting') this.#finish({ exitCode: 1, reason: 'error' });
      throw error;
    }
    const context = this.#exec.context;
    for (const listener of this.#listeners) context.bus.subscribe(listener);
    try {
      await recoverOnStart(this.#exec, () => this.#rollback({ kind: 'resume-point' }, false));
    } catch (error) {
      await this.#close('error');
      throw error;
    }
    announceReady(context);
    // A shutdown requested while starting waits for the start, then runs; nothing starts here.
    if (this.#phase !== 'starting') return;
    this.#phase = 'idle';
    if (this.settings.autostart) {
      this.#launch({});
      return;
    }
    emit(context, 'server.idle', {
      reason: 'startup',
      message: 'Server ready. Waiting for commands (autostart disabled).',
    });
    // Idle: start() resolves once everything the start announced is published, so a client that
    // connects next sees it in its history, not as live events racing its handshake.
    await context.bus.settled();
  }

  // ---- driving --------------------------------------------------------------------------------

  /**
   * Starts a codon (`codon.start`), the next one (`codon.next`), or re-runs one (`codon.redo`);
   * without autostart only that codon runs.
   *
   * @throws {RuntimeError} RUNTIME_UNKNOWN_CODON for a codon not in the plan, and the refusals of
   *   {@link admit} for `codon.start`.
   */
  startCodon(request: DriveRequest): void {
    this.admit('codon.start');
    if (request.codonId !== undefined) requirePlanEntry(this.context, request.codonId);
    this.#launch({ ...request, single: request.single ?? !this.settings.autostart });
  }

  /** The next codon of the plan on the execution thread, or null at its end. */
  nextCodonId(): string | null {
    return executionThread(this.context.store.state).nextCodonId;
  }

  #launch(request: DriveRequest): void {
    this.#phase = 'driving';
    this.#drive = driveCodons(this.#driveHost(), request)
      .catch((error) => {
        reportError(this.context, `The runtime failed: ${(error as Error).stack ?? error}`, {
          severity: 'fatal',
        });
        // Not awaited: the shutdown waits for this very drive to end.
        void this.shutdown('error');
      })
      .finally(() => {
        this.#drive = undefined;
        this.#settle();
      });
  }

  /** Back to `idle` when driving ends (a shutdown, if one began, keeps its phase). */
  #settle(): void {
    if (this.#phase === 'driving') this.#phase = 'idle';
  }

  /** What the drive loop borrows from the runtime (see `drive-codons.ts`). */
  #driveHost(): DriveHost {
    return {
      context: this.context,
      hint: this.#hint,
      autostart: this.settings.autostart,
      stopSignal: this.#stopSignal.signal,
      driving: () => this.#phase === 'driving',
      settle: () => this.#settle(),
      takeSkipRig: (codonId) => {
        const skip = this.#skipRigOf === codonId;
        this.#skipRigOf = undefined;
        return skip;
      },
      headless: this.settings.headless,
      active: this.#active,
      shutdown: (reason, running) => {
        void this.#shutdown(reason, running);
      },
      updateRunId: (runId) => this.#exec?.lock.update({ runId }),
    };
  }

  /**
   * Skips (`codon.skip`) or force-stops (`codon.forceStop`) the running codon; resolves with its
   * id once its agent has exited. With `expected`, only that codon: when another one runs (the
   * expected one ended and the plan went on), nothing is stopped.
   *
   * @throws {RuntimeError} RUNTIME_NO_CODON_RUNNING (`details.codonId`, `details.running` when a
   *   codon was expected), and the refusals of {@link admit}.
   */
  async stopActive(
    kind: 'skip' | 'forceStop',
    options: { reason?: string | undefined; expected?: string | undefined } = {},
  ): Promise<string> {
    const { reason, expected } = options;
    this.admit(kind === 'skip' ? 'codon.skip' : 'codon.forceStop');
    return stopActiveCodon(this.context, this.#active, kind, { reason, expected });
  }

  // ---- rollback -------------------------------------------------------------------------------

  /**
   * Rolls back to a checkpoint (seed 002). With `autoRestart` (and autostart), the next codon
   * starts right after; otherwise the runtime waits for a command.
   *
   * @throws {RuntimeError} RUNTIME_CODON_RUNNING, RUNTIME_ROLLBACK_IN_PROGRESS,
   *   RUNTIME_NO_CHECKPOINT, and the other refusals of {@link admit}.
   */
  async rollback(request: RollbackRequest, autoRestart = false): Promise<RollbackResult> {
    this.admit('rollback.toCheckpoint');
    const result = await this.#rollback(request, autoRestart);
    if (this.#phase !== 'idle') return result;
    if (autoRestart && this.settings.autostart) this.#launch({});
    else
      emit(this.context, 'server.idle', {
        reason: 'rollback-completed',
        message: "Rollback completed. Use 'codon.next' to continue.",
      });
    return result;
  }

  /** The rollback itself, in the `rolling-back` phase; returns to the phase it came from. */
  async #rollback(request: RollbackRequest, autoRestart: boolean): Promise<RollbackResult> {
    const from = this.#phase;
    this.#phase = 'rolling-back';
    try {
      const { result, skipRigOf } = await rollBack(this.context, this.#hint, request, autoRestart);
      this.#skipRigOf = skipRigOf;
      await this.#exec?.lock.update({ runId: result.toRun });
      return result;
    } finally {
      // A shutdown that began meanwhile keeps its phase.
      if (this.#phase === 'rolling-back') this.#phase = from;
    }
  }

  // ---- shutdown -------------------------------------------------------------------------------

  /**
   * Graceful shutdown (reference §5.8): stops the agent (exit checkpoint, codon marked failed as
   * interrupted), drains sentinels, ends the run (completed only when every codon completed),
   * flushes state and journal, releases the lock. A second request from outside forces.
   */
  shutdown(reason: ShutdownReason = 'client request'): Promise<RuntimeExit> {
    return this.#shutdown(reason);
  }

  /** `running`: how a spent hank budget stops the codons still running (see `budgetHalt`). */
  #shutdown(reason: ShutdownReason, running?: BudgetHalt['running']): Promise<RuntimeExit> {
    switch (this.#phase) {
      case 'closed':
        return this.finished;
      case 'stopping':
        if (!SELF_REASONS.has(reason)) void this.forceShutdown();
        return this.finished;
      default:
        this.#phase = 'stopping';
        this.#stopSignal.abort();
        return this.#stopGracefully(reason, running);
    }
  }

  async #stopGracefully(
    reason: ShutdownReason,
    running?: BudgetHalt['running'],
  ): Promise<RuntimeExit> {
    // A shutdown during start() waits for it, so everything it opens is closed again.
    await this.#startup?.catch(() => undefined);
    if (!this.#exec) return this.#finish({ exitCode: computeExitCode(reason), reason });
    const context = this.#exec.context;
    await stopForShutdown(context, [...this.#active], reason, running);
    await this.#drive?.catch(() => undefined);
    await context.sentinels.unload('shutdown').catch(() => []);
    return this.#close(reason);
  }

  /**
   * Stops at once: the agent is killed, no checkpoint; the lock is released. Exit code 1. During
   * `start()` it waits for the execution to be open, so that what start opens is closed again.
   */
  forceShutdown(): Promise<RuntimeExit> {
    if (this.#phase === 'closed') return this.finished;
    const starting = this.#phase === 'starting' ? this.#startup : undefined;
    this.#phase = 'stopping';
    this.#stopSignal.abort();
    this.#exec?.abandon();
    for (const active of this.#active) active.control.abandon();
    if (starting) return starting.catch(() => undefined).then(() => this.#close('force'));
    return this.#close('force');
  }

  #close(reason: ShutdownReason): Promise<RuntimeExit> {
    this.#closing ??= this.#closeExecution(reason);
    return this.#closing;
  }

  async #closeExecution(reason: ShutdownReason): Promise<RuntimeExit> {
    const exit = this.#exec
      ? await closeExecution(this.#exec, reason)
      : { exitCode: computeExitCode(reason), reason };
    return this.#finish(exit);
  }

  #finish(exit: RuntimeExit): RuntimeExit {
    this.#phase = 'closed';
    this.#resolveFinished(exit);
    return exit;
  }
}

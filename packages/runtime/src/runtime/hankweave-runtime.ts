import { resolve } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import type { RecentEvents } from '@hankweave/journal';
import { currentRun, executionThread } from '@hankweave/state';
import type {
  ClientCommandType,
  ExecutionCodonEntry,
  HankweaveEvent,
  HankweaveState,
} from '@hankweave/types';
import { type BudgetGate, budgetGate } from '../budget/budget-gate.js';
import { budgetSettings } from '../budget/budget-options.js';
import { CheckpointHint } from '../codon/checkpoint-hint.js';
import { CodonControl } from '../codon/codon-control.js';
import type { CodonRunOutcome } from '../codon/codon-run-outcome.js';
import { runCodon } from '../codon/run-codon.js';
import { RuntimeError } from '../errors.js';
import type { EventListener } from '../events/event-bus.js';
import { announceOutputs, outputsAfterCodon } from '../outputs/codon-outputs.js';
import type { BlockHost, BlockOutcome } from '../parallel/block-host.js';
import { blockIdOf } from '../parallel/block-lanes.js';
import { runBlock } from '../parallel/run-block.js';
import { type ConditionSkip, conditionGate } from '../plan/condition-gate.js';
import { performRollback } from '../rollback/perform-rollback.js';
import { type RollbackRequest, resolveRollbackTarget } from '../rollback/resolve-target.js';
import { announceContainment } from '../sandbox/announce-containment.js';
import type { Containment } from '../sandbox/containment.js';
import { blockRetrySource, decideAfterCodon, retrySource } from './after-codon.js';
import { closeExecution } from './close-execution.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import type { Decision } from './decision.js';
import { computeExitCode, type RuntimeExit, type ShutdownReason } from './exit-code.js';
import { loadHank, type OpenExecution, openExecution } from './open-execution.js';
import { type RuntimePhase, refusalMessage, refusalOf } from './phase.js';
import { reapOrphanAgents } from './reap-orphan-agents.js';
import { recoverExecution } from './recover-execution.js';
import { endRun, startRun } from './runs.js';
import {
  emit,
  info,
  type RuntimeContext,
  type RuntimeSettings,
  reportError,
} from './runtime-context.js';

/** What to run: a codon (default the next one), with or without its rig, once or onwards. */
export interface DriveRequest {
  codonId?: string;
  skipPreCommands?: boolean;
  isAutoRetry?: boolean;
  /** Run this codon only, then wait for a command. */
  single?: boolean;
}

/** The codon running now, and its control handle. */
interface ActiveCodon {
  control: CodonControl;
  promise: Promise<CodonRunOutcome>;
}

/** What a rollback answers. */
export interface RollbackResult {
  toRun: string;
  sha: string;
  codonId: string | null;
}

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
    this.settings = {
      autostart: options.autostart ?? true,
      openRunAtStart: options.openRunAtStart ?? true,
      headless: options.headless ?? false,
      ignoreRigFailures: options.ignoreRigFailures ?? false,
      env: options.env ?? process.env,
      killGraceMs: options.killGraceMs ?? 5000,
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.rigCommandTimeoutMs !== undefined
        ? { rigCommandTimeoutMs: options.rigCommandTimeoutMs }
        : {}),
      ...(options.anthropicBaseUrl !== undefined
        ? { anthropicBaseUrl: options.anthropicBaseUrl }
        : {}),
      ...(options.piBaseUrl !== undefined ? { piBaseUrl: options.piBaseUrl } : {}),
      ...(options.piRetries !== undefined ? { piRetries: options.piRetries } : {}),
      ...(options.piApi !== undefined ? { piApi: options.piApi } : {}),
      ...(options.outputDirectory !== undefined
        ? { outputDirectory: resolve(options.outputDirectory) }
        : {}),
      overwriteOutput: options.overwriteOutput === true,
      sandbox: options.sandbox ?? 'auto',
      ...budgetSettings(options),
    };
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
    return this.#firstActive()?.control.codonId;
  }

  /** The ids of every codon running now, in the order they started. */
  get activeCodonIds(): string[] {
    return [...this.#active].map((active) => active.control.codonId);
  }

  #firstActive(): ActiveCodon | undefined {
    return this.#active.values().next().value;
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
      await reapOrphanAgents(context.store.state, {
        previous: this.#exec.lock.previous,
        log: context.log,
        graceMs: context.settings.killGraceMs,
      });
      const recovery = recoverExecution(context);
      if (recovery.kind === 'roll-back-to-resume-point') {
        await this.#rollback({ kind: 'resume-point' }, false);
      }
      await this.#exec.lock.update({ runId: context.store.state.currentRunId });
    } catch (error) {
      await this.#close('error');
      throw error;
    }
    info(
      context,
      `Execution ${context.layout.executionDir} ready (run ${context.store.state.currentRunId})`,
    );
    announceContainment(context);
    void context.sessions.syncPipeline(context.store.state);
    announceOutputs(context);
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
    if (
      request.codonId !== undefined &&
      !this.context.store.state.executionPlan.some((entry) => entry.codonId === request.codonId)
    ) {
      throw new RuntimeError(
        'RUNTIME_UNKNOWN_CODON',
        `Codon ${request.codonId} is not in the plan; use a runtime id from state.json's executionPlan (loop codons look like review#0)`,
        { details: { codonId: request.codonId } },
      );
    }
    this.#launch({ ...request, single: request.single ?? !this.settings.autostart });
  }

  /** The next codon of the plan on the execution thread, or null at its end. */
  nextCodonId(): string | null {
    return executionThread(this.context.store.state).nextCodonId;
  }

  #launch(request: DriveRequest): void {
    this.#phase = 'driving';
    this.#drive = this.#driveCodons(request)
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

  async #driveCodons(first: DriveRequest): Promise<void> {
    let request: DriveRequest | undefined = first;
    while (this.#phase === 'driving') {
      const codonId: string | null = request?.codonId ?? this.nextCodonId();
      if (!codonId) {
        this.#allDone();
        return;
      }
      const blockId = blockIdOf(this.#planEntry(codonId));
      if (blockId !== undefined) {
        // A parallel block runs as one step: its branches, then its merge.
        const outcome = await runBlock(this.#blockHost(), blockId);
        request = undefined;
        if (this.#afterBlock(outcome, first)) continue;
        return;
      }
      let skip: ConditionSkip | undefined;
      if (!request?.isAutoRetry) {
        // Conditions first: a codon that will not run spends nothing, so no budget stops it.
        skip = await this.#conditionGate(codonId);
        // The gate reads files: a shutdown that began meanwhile starts nothing more.
        if (this.#phase !== 'driving') return;
      }
      if (!request?.isAutoRetry && !skip) {
        const gate = this.#budgetGate(codonId);
        if (gate.kind === 'stop') {
          void this.shutdown(gate.fail ? 'budget failure' : 'budget exceeded');
          return;
        }
        if (gate.kind === 'loop-ended') {
          request = undefined;
          continue;
        }
      }
      const skipPreCommands = request?.skipPreCommands ?? this.#takeSkipRig(codonId);
      const decision = await this.#executeCodon(this.context, this.#hint, codonId, {
        skipPreCommands,
        isAutoRetry: request?.isAutoRetry ?? false,
        ...(skip ? { skip } : {}),
      });
      request = undefined;
      switch (decision.kind) {
        case 'retry':
          await sleep(decision.delayMs, this.#stopSignal.signal);
          request = { codonId, skipPreCommands: true, isAutoRetry: true };
          continue;
        case 'shutdown':
          void this.shutdown('codon failure');
          return;
        case 'idle':
          this.#settle();
          return;
        case 'next':
          if (this.#pausesAfterEach(first)) {
            this.#pause(`Codon ${codonId} finished`);
            return;
          }
      }
    }
  }

  /** After a block: true to go on driving; otherwise the drive ends (idle, or stopping). */
  #afterBlock(outcome: BlockOutcome, first: DriveRequest): boolean {
    if (this.#phase !== 'driving') return false;
    if (outcome.kind === 'stopped') return false;
    if (outcome.kind === 'idle') {
      this.#settle();
      return false;
    }
    if (this.#pausesAfterEach(first)) {
      this.#pause('Parallel block finished');
      return false;
    }
    return true;
  }

  /** Without autostart, or for a single codon, the drive waits for a command after each step. */
  #pausesAfterEach(first: DriveRequest): boolean {
    return !this.settings.autostart || first.single === true;
  }

  /** Ends the drive after a step: all done, or idle until `codon.next`. */
  #pause(what: string): void {
    if (!this.nextCodonId()) {
      this.#allDone();
      return;
    }
    this.#settle();
    emit(this.context, 'server.idle', {
      reason: 'codon-completed',
      message: `${what}. Use 'codon.next' to continue.`,
    });
  }

  /** What a parallel block borrows from the runtime (see `parallel/run-block.ts`). */
  #blockHost(): BlockHost {
    return {
      context: this.context,
      hint: this.#hint,
      stopSignal: this.#stopSignal.signal,
      driving: () => this.#phase === 'driving',
      execute: (context, hint, entry, options) =>
        this.#executeCodon(context, hint, entry.codonId, options),
      budgetGate: (context, entry) => budgetGate(context, entry),
      halt: (reason) => {
        void this.shutdown(reason);
      },
      openContinuation: async () => {
        const run = currentRun(this.context.store.state);
        if (!run) return;
        endRun(this.context, run.runId, 'completed');
        const runId = startRun(this.context, {
          type: 'continuation',
          source: blockRetrySource(this.context, run.runId),
          reason: 'retry',
        });
        await this.#exec?.lock.update({ runId });
      },
    };
  }

  #planEntry(codonId: string): ExecutionCodonEntry | undefined {
    return this.context.store.state.executionPlan.find((entry) => entry.codonId === codonId);
  }

  #allDone(): void {
    if (this.settings.autostart) {
      info(this.context, 'All codons completed successfully. Server shutting down.');
      void this.shutdown('all codons completed');
    } else {
      this.#settle();
      emit(this.context, 'server.idle', {
        reason: 'all-codons-completed',
        message: 'All codons completed. Server remains active.',
      });
    }
  }

  async #executeCodon(
    context: RuntimeContext,
    hint: CheckpointHint,
    codonId: string,
    options: { skipPreCommands: boolean; isAutoRetry: boolean; skip?: ConditionSkip },
  ): Promise<Decision> {
    const entry = context.store.state.executionPlan.find(
      (candidate) => candidate.codonId === codonId,
    );
    if (!entry) {
      throw new RuntimeError(
        'RUNTIME_UNKNOWN_CODON',
        `Codon ${codonId} is not in the plan; use a runtime id from state.json's executionPlan (loop codons look like review#0)`,
        { details: { codonId } },
      );
    }
    const run = currentRun(context.store.state);
    if (!run) {
      throw new RuntimeError(
        'RUNTIME_INTERNAL',
        'No run is open (an internal inconsistency); restart the runtime, which opens a run from the last checkpoint',
      );
    }
    let runId = run.runId;
    if (!options.isAutoRetry && run.codons.some((codon) => codon.codonId === codonId)) {
      // Running a codon again opens a continuation run, so each run holds one attempt per codon.
      endRun(context, runId, 'completed');
      runId = startRun(context, {
        type: 'continuation',
        // In a block, the previous plan entry may be another branch's: keep the whole thread.
        source: entry.parallelContext
          ? blockRetrySource(context, runId)
          : retrySource(context, entry, runId),
        reason: 'retry',
      });
      await this.#exec?.lock.update({ runId });
    }
    const control = new CodonControl(codonId);
    const promise = runCodon(context, {
      runId,
      entry,
      skipPreCommands: options.skipPreCommands,
      control,
      hint,
      ...(options.skip ? { skip: options.skip } : {}),
    });
    const active = { control, promise };
    this.#active.add(active);
    let outcome: CodonRunOutcome;
    try {
      outcome = await promise;
    } finally {
      this.#active.delete(active);
    }
    const decision = decideAfterCodon(context, {
      codonId,
      runId,
      outcome,
      headless: this.settings.headless,
    });
    void context.sessions.syncPipeline(context.store.state);
    return outputsAfterCodon(context, { codonId, runId, outcome }, decision);
  }

  /** Why `codonId` is skipped by a `when` condition, if it is (see {@link conditionGate}). */
  async #conditionGate(codonId: string): Promise<ConditionSkip | undefined> {
    const entry = this.context.store.state.executionPlan.find(
      (candidate) => candidate.codonId === codonId,
    );
    return entry ? conditionGate(this.context, entry) : undefined;
  }

  /** Whether the budget lets `codonId` run (see {@link budgetGate}). */
  #budgetGate(codonId: string): BudgetGate {
    const entry = this.context.store.state.executionPlan.find(
      (candidate) => candidate.codonId === codonId,
    );
    return entry ? budgetGate(this.context, entry) : { kind: 'run' };
  }

  #takeSkipRig(codonId: string): boolean {
    const skip = this.#skipRigOf === codonId;
    this.#skipRigOf = undefined;
    return skip;
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
    const active =
      expected === undefined
        ? this.#firstActive()
        : ([...this.#active].find((candidate) => candidate.control.codonId === expected) ??
          this.#firstActive());
    if (expected !== undefined && active?.control.codonId !== expected) {
      const running = active?.control.codonId;
      // A parallel block runs several: name them all (`running` stays the first, as before).
      const all = this.activeCodonIds;
      const who =
        all.length > 1
          ? ` (${all.join(', ')} are)`
          : running === undefined
            ? ''
            : ` (${running} is)`;
      throw new RuntimeError(
        'RUNTIME_NO_CODON_RUNNING',
        `Codon ${expected} is not running${who}; nothing was stopped`,
        { details: { codonId: expected, running: running ?? null, runningCodons: all } },
      );
    }
    if (!active) throw new RuntimeError('RUNTIME_NO_CODON_RUNNING', 'No running codon to stop');
    await active.control.stop(
      kind === 'skip' ? { kind: 'skip' } : { kind: 'force-stop', reason: reason ?? 'user request' },
    );
    if (kind === 'forceStop') info(this.context, `Codon ${active.control.codonId} force stopped`);
    return active.control.codonId;
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
      const target = await resolveRollbackTarget(this.context, request);
      const result = await performRollback(this.context, this.#hint, target, autoRestart);
      // A rig-setup target leaves the codon's rig in place: re-running it skips the rig.
      this.#skipRigOf =
        target.checkpointType === 'rig-setup' && target.codonId ? target.codonId : undefined;
      await this.#exec?.lock.update({ runId: result.toRun });
      return { toRun: result.toRun, sha: target.sha, codonId: target.codonId };
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
    switch (this.#phase) {
      case 'closed':
        return this.finished;
      case 'stopping':
        if (!SELF_REASONS.has(reason)) void this.forceShutdown();
        return this.finished;
      default:
        this.#phase = 'stopping';
        this.#stopSignal.abort();
        return this.#stopGracefully(reason);
    }
  }

  async #stopGracefully(reason: ShutdownReason): Promise<RuntimeExit> {
    // A shutdown during start() waits for it, so everything it opens is closed again.
    await this.#startup?.catch(() => undefined);
    if (!this.#exec) return this.#finish({ exitCode: computeExitCode(reason), reason });
    const context = this.#exec.context;
    const active = [...this.#active];
    if (active.length > 0) {
      info(
        context,
        `Shutting down: waiting for ${active.length === 1 ? 'the agent process' : `${active.length} agent processes`} to exit. Send server.force_shutdown to force quit.`,
      );
      // Every branch of a parallel block stops at once.
      await Promise.all(
        active.map(async (codon) => {
          await codon.control.stop({ kind: 'shutdown', cause: reason });
          await codon.promise.catch(() => undefined);
        }),
      );
    }
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

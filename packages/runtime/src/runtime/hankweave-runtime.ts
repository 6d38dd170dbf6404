import {
  currentRun,
  executionThread,
  findCrashedRuns,
  runCrashedTransition,
} from '@hankweave/state';
import type { HankweaveEvent, HankweaveState } from '@hankweave/types';
import { CheckpointHint } from '../codon/checkpoint-hint.js';
import { CodonControl } from '../codon/codon-control.js';
import { type CodonRunOutcome, runCodon } from '../codon/run-codon.js';
import { RuntimeError } from '../errors.js';
import type { EventListener } from '../events/event-bus.js';
import { performRollback } from '../rollback/perform-rollback.js';
import { type RollbackRequest, resolveRollbackTarget } from '../rollback/resolve-target.js';
import { type Decision, decideAfterCodon, retrySource } from './after-codon.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import { computeExitCode, type ShutdownReason } from './exit-code.js';
import { loadHank, type OpenExecution, openExecution } from './open-execution.js';
import { endRun, startRun } from './runs.js';
import {
  emit,
  info,
  type RuntimeContext,
  type RuntimeSettings,
  reportError,
  transition,
} from './runtime-context.js';

/** How the runtime ended. */
export interface RuntimeExit {
  exitCode: number;
  reason: ShutdownReason;
}

interface DriveRequest {
  codonId?: string;
  skipPreCommands?: boolean;
  isAutoRetry?: boolean;
  /** Run this codon only, then wait for a command. */
  single?: boolean;
}

/**
 * The orchestrator: opens the execution, recovers from crashes, runs codons in plan order (or on
 * command), applies failure policies, rolls back and shuts down. No process-wide side effects:
 * no signal handlers, no `process.exit`; `finished` says how it ended.
 */
export class HankweaveRuntime {
  readonly settings: RuntimeSettings;
  readonly finished: Promise<RuntimeExit>;
  #resolveFinished!: (exit: RuntimeExit) => void;
  #exec: OpenExecution | undefined;
  #listeners = new Set<EventListener>();
  #hint = new CheckpointHint();
  #active: { control: CodonControl; promise: Promise<CodonRunOutcome> } | undefined;
  #driving: Promise<void> | undefined;
  #rollingBack = false;
  #stopping: Promise<RuntimeExit> | undefined;
  #shutdownRequests = 0;
  #retryAttempts = new Map<string, { attempts: number; cost: number }>();
  #pendingSkipPreCommands: string | undefined;
  #sleep = new AbortController();
  #starting: Promise<void> | undefined;

  constructor(readonly options: CreateRuntimeOptions) {
    this.settings = {
      autostart: options.autostart ?? true,
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
    };
    this.finished = new Promise((resolve) => {
      this.#resolveFinished = resolve;
    });
  }

  /** The open execution's shared context (after `start()`). */
  get context(): RuntimeContext {
    if (!this.#exec)
      throw new RuntimeError(
        'RUNTIME_NOT_STARTED',
        'The runtime has not started; call start() first',
        {},
      );
    return this.#exec.context;
  }

  get started(): boolean {
    return this.#exec !== undefined;
  }

  get activeCodonId(): string | undefined {
    return this.#active?.control.codonId;
  }

  get busy(): boolean {
    return this.#active !== undefined || this.#driving !== undefined;
  }

  get rollingBack(): boolean {
    return this.#rollingBack;
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

  /**
   * Loads and validates the hank, opens the execution (lock, checkpoints, state, journal), marks
   * crashed runs, rolls back to the last success when the last run failed, and opens this run.
   * With autostart, codons start running in the background.
   *
   * @throws {RuntimeError} RUNTIME_INVALID_HANK and the execution-directory codes; StateError
   *   STATE_LOCKED when another live process holds the execution.
   */
  start(): Promise<void> {
    if (this.#starting)
      throw new RuntimeError(
        'RUNTIME_INTERNAL',
        'start() was already called on this runtime; create a new runtime to start again',
        {},
      );
    this.#starting = this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    const hank = loadHank(this.options);
    this.#exec = await openExecution(this.options, hank, this.settings);
    const context = this.#exec.context;
    for (const listener of this.#listeners) context.bus.subscribe(listener);
    for (const warning of hank.warnings) context.log.warn(`hank.json: ${warning}`);
    try {
      await this.#recover();
    } catch (error) {
      await this.#close('error');
      throw error;
    }
    info(
      context,
      `Execution ${context.layout.executionDir} ready (run ${context.store.state.currentRunId})`,
    );
    // A shutdown requested while starting waits for the start, then runs; nothing starts here.
    if (this.#stopping) return;
    if (this.settings.autostart) this.#launch({});
    else
      emit(context, 'server.idle', {
        reason: 'startup',
        message: 'Server ready. Waiting for commands (autostart disabled).',
      });
  }

  async #recover(): Promise<void> {
    const context = this.context;
    // We hold the lock, so every run still marked running belongs to a server that is gone.
    for (const run of findCrashedRuns(context.store.state, {
      isPidAlive: () => false,
      exclusive: true,
    })) {
      context.log.warn(
        `Run ${run.runId} (pid ${run.serverPid}) did not shut down: marking it crashed`,
      );
      transition(context, runCrashedTransition(run, context.clock()));
    }
    if (!context.store.state.initialCheckpoint) {
      transition(context, {
        type: 'InitialCheckpointSet',
        data: { sha: context.engine.initialCheckpoint },
      });
    }
    const thread = executionThread(context.store.state);
    if (thread.runId && thread.failed) {
      info(
        context,
        'The previous run failed or crashed: rolling back to the last successful checkpoint',
      );
      await this.#rollback({ kind: 'last-success' }, false);
    } else if (!currentRun(context.store.state)) {
      const resume = lastCompletion(context.store.state);
      if (resume) {
        startRun(context, { type: 'continuation', source: resume, reason: 'continue' });
      } else {
        startRun(context, {
          type: 'fresh',
          initialCheckpointSha:
            context.store.state.initialCheckpoint ?? context.engine.initialCheckpoint,
        });
      }
    }
    await this.#exec?.lock.update({ runId: context.store.state.currentRunId });
  }

  #launch(request: DriveRequest): void {
    this.#driving ??= this.#drive(request)
      .catch(async (error) => {
        reportError(this.context, `The runtime failed: ${(error as Error).stack ?? error}`, {
          severity: 'fatal',
        });
        await this.shutdown('error');
      })
      .finally(() => {
        this.#driving = undefined;
      });
  }

  async #drive(first: DriveRequest): Promise<void> {
    let request: DriveRequest | undefined = first;
    while (!this.#stopping) {
      const codonId: string | null =
        request?.codonId ?? executionThread(this.context.store.state).nextCodonId;
      if (!codonId) {
        this.#allDone();
        return;
      }
      const skipPreCommands = request?.skipPreCommands ?? this.#takePendingSkip(codonId);
      const decision = await this.#executeCodon(codonId, {
        skipPreCommands,
        isAutoRetry: request?.isAutoRetry ?? false,
      });
      const single = first.single === true;
      request = undefined;
      if (decision.kind === 'retry') {
        await this.#pause(decision.delayMs);
        request = { codonId, skipPreCommands: true, isAutoRetry: true };
        continue;
      }
      if (decision.kind === 'shutdown') {
        void this.shutdown('codon failure');
        return;
      }
      if (decision.kind === 'idle') return;
      if (!this.settings.autostart || single) {
        const next = executionThread(this.context.store.state).nextCodonId;
        if (!next) this.#allDone();
        else
          emit(this.context, 'server.idle', {
            reason: 'codon-completed',
            message: `Codon ${codonId} finished. Use 'codon.next' to continue.`,
          });
        return;
      }
    }
  }

  #allDone(): void {
    if (this.settings.autostart) {
      info(this.context, 'All codons completed successfully. Server shutting down.');
      void this.shutdown('all codons completed');
    } else {
      emit(this.context, 'server.idle', {
        reason: 'all-codons-completed',
        message: 'All codons completed. Server remains active.',
      });
    }
  }

  async #executeCodon(
    codonId: string,
    options: { skipPreCommands: boolean; isAutoRetry: boolean },
  ): Promise<Decision> {
    const context = this.context;
    const entry = context.store.state.executionPlan.find(
      (candidate) => candidate.codonId === codonId,
    );
    if (!entry)
      throw new RuntimeError(
        'RUNTIME_UNKNOWN_CODON',
        `Codon ${codonId} is not in the plan; use a runtime id from state.json's executionPlan (loop codons look like review#0)`,
        {
          details: { codonId },
        },
      );
    const run = currentRun(context.store.state);
    if (!run)
      throw new RuntimeError(
        'RUNTIME_INTERNAL',
        'No run is open (an internal inconsistency); restart the runtime, which opens a run from the last checkpoint',
        {},
      );
    let runId = run.runId;
    if (!options.isAutoRetry && run.codons.some((codon) => codon.codonId === codonId)) {
      // Running a codon again opens a continuation run, so each run holds one attempt per codon.
      endRun(context, runId, 'completed');
      runId = startRun(context, {
        type: 'continuation',
        source: retrySource(context, entry, runId),
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
      hint: this.#hint,
    });
    this.#active = { control, promise };
    let outcome: CodonRunOutcome;
    try {
      outcome = await promise;
    } finally {
      this.#active = undefined;
    }
    return decideAfterCodon(context, {
      codonId,
      entry,
      runId,
      outcome,
      retryAttempts: this.#retryAttempts,
      headless: this.settings.headless,
    });
  }

  #takePendingSkip(codonId: string): boolean {
    const skip = this.#pendingSkipPreCommands === codonId;
    this.#pendingSkipPreCommands = undefined;
    return skip;
  }

  async #pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#sleep.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  // ---- commands -------------------------------------------------------------------------------

  /** Starts a codon (`codon.start`), the next one (`codon.next`), or re-runs the latest (`codon.redo`). */
  startCodon(request: DriveRequest): void {
    this.#refuseWhileBusy('start a codon');
    this.#launch({ ...request, single: request.single ?? !this.settings.autostart });
  }

  nextCodonId(): string | null {
    return executionThread(this.context.store.state).nextCodonId;
  }

  /** Skips (`skip`) or force-stops (`forceStop`) the active codon. */
  async stopActive(kind: 'skip' | 'forceStop', reason?: string): Promise<string> {
    const active = this.#active;
    if (!active) throw new RuntimeError('RUNTIME_NO_CODON_RUNNING', 'No running codon to stop', {});
    if (kind === 'skip') active.control.skipRequested = true;
    else active.control.forceStopReason = reason ?? 'user request';
    await active.control.stop();
    if (kind === 'forceStop') info(this.context, `Codon ${active.control.codonId} force stopped`);
    return active.control.codonId;
  }

  /**
   * Rolls back to a checkpoint (seed 002). Refused while a codon runs or another rollback is in
   * progress. With `autoRestart` (and autostart), the next codon starts right after.
   *
   * @throws {RuntimeError} RUNTIME_CODON_RUNNING, RUNTIME_ROLLBACK_IN_PROGRESS, RUNTIME_NO_CHECKPOINT
   */
  async rollback(
    request: RollbackRequest,
    autoRestart = false,
  ): Promise<{ toRun: string; sha: string; codonId: string | null }> {
    if (this.#active || this.#driving) {
      throw new RuntimeError(
        'RUNTIME_CODON_RUNNING',
        "Cannot rollback while codon is running. Use 'codon.forceStop' first.",
        {},
      );
    }
    const result = await this.#rollback(request, autoRestart);
    if (autoRestart && this.settings.autostart) this.#launch({});
    else
      emit(this.context, 'server.idle', {
        reason: 'rollback-completed',
        message: "Rollback completed. Use 'codon.next' to continue.",
      });
    return result;
  }

  async #rollback(
    request: RollbackRequest,
    autoRestart: boolean,
  ): Promise<{ toRun: string; sha: string; codonId: string | null }> {
    if (this.#rollingBack)
      throw new RuntimeError(
        'RUNTIME_ROLLBACK_IN_PROGRESS',
        'A rollback is already in progress',
        {},
      );
    this.#rollingBack = true;
    try {
      const target = await resolveRollbackTarget(this.context, request);
      const result = await performRollback(this.context, this.#hint, target, autoRestart);
      // A rig-setup target leaves the codon's rig in place: re-running it skips the rig.
      this.#pendingSkipPreCommands =
        target.checkpointType === 'rig-setup' && target.codonId ? target.codonId : undefined;
      this.#retryAttempts.clear();
      await this.#exec?.lock.update({ runId: result.toRun });
      return { toRun: result.toRun, sha: target.sha, codonId: target.codonId };
    } finally {
      this.#rollingBack = false;
    }
  }

  #refuseWhileBusy(what: string): void {
    if (this.#rollingBack)
      throw new RuntimeError(
        'RUNTIME_ROLLBACK_IN_PROGRESS',
        `Cannot ${what} during a rollback`,
        {},
      );
    if (this.#stopping)
      throw new RuntimeError(
        'RUNTIME_SHUTTING_DOWN',
        `Cannot ${what}: the runtime is shutting down`,
        {},
      );
    if (this.busy)
      throw new RuntimeError(
        'RUNTIME_CODON_RUNNING',
        `Cannot ${what} while codon ${this.#active?.control.codonId ?? '(starting)'} is running`,
        {},
      );
  }

  // ---- shutdown -------------------------------------------------------------------------------

  /**
   * Graceful shutdown (reference §5.8): stops the agent (exit checkpoint, codon marked failed as
   * interrupted), drains sentinels, ends the run (completed only when every codon completed),
   * flushes state and journal, releases the lock. A second request forces.
   */
  shutdown(reason: ShutdownReason = 'client request'): Promise<RuntimeExit> {
    this.#shutdownRequests++;
    if (this.#stopping) {
      if (
        this.#shutdownRequests > 1 &&
        reason !== 'all codons completed' &&
        reason !== 'codon failure'
      )
        void this.forceShutdown();
      return this.#stopping;
    }
    this.#stopping = this.#gracefulShutdown(reason);
    return this.#stopping;
  }

  async #gracefulShutdown(reason: ShutdownReason): Promise<RuntimeExit> {
    // A shutdown during start() waits for it, so everything it opens is closed again.
    await this.#starting?.catch(() => undefined);
    if (!this.#exec) {
      const exit = { exitCode: computeExitCode(reason), reason };
      this.#resolveFinished(exit);
      return exit;
    }
    const context = this.context;
    this.#sleep.abort();
    const active = this.#active;
    if (active) {
      info(
        context,
        'Shutting down: waiting for agent process to exit. Send server.force_shutdown to force quit.',
      );
      active.control.shutdownRequested = true;
      await active.control.stop();
      await active.promise.catch(() => undefined);
    }
    await this.#driving?.catch(() => undefined);
    await context.sentinels.unload('shutdown').catch(() => []);
    return this.#close(reason);
  }

  /** Stops at once: the agent is killed, no checkpoint; the lock is released. Exit code 1. */
  async forceShutdown(): Promise<RuntimeExit> {
    this.#sleep.abort();
    const active = this.#active;
    if (active) {
      active.control.shutdownRequested = true;
      active.control.abort.abort();
      void active.control.session?.kill('force shutdown');
    }
    return this.#close('force');
  }

  #closing: Promise<RuntimeExit> | undefined;

  #close(reason: ShutdownReason): Promise<RuntimeExit> {
    this.#closing ??= (async () => {
      const exec = this.#exec;
      let runStatus: string | undefined;
      if (exec) {
        const context = exec.context;
        const run = currentRun(context.store.state);
        if (run && reason !== 'force') {
          // A run ends failed when a codon was interrupted or its last codon failed; the next start
          // then rolls back to the last success. An idle run (between codons, after a rollback)
          // ends completed, so an explicit rollback is not undone by the next start.
          const last = run.codons.at(-1);
          const clean =
            reason === 'all codons completed' ||
            last === undefined ||
            last.status === 'completed' ||
            last.status === 'skipped';
          if (clean) endRun(context, run.runId, 'completed');
          else endRun(context, run.runId, 'failed', reason);
        }
        runStatus = context.store.state.runs.find(
          (candidate) => candidate.runId === run?.runId,
        )?.status;
        context.log.info(`Shutting down (${reason})`);
        await context.bus.drain();
        await context.store
          .close()
          .catch((error) => context.log.error(`Saving state failed: ${(error as Error).message}`));
        await context.journal
          .close()
          .catch((error) =>
            context.log.error(`Closing the journal failed: ${(error as Error).message}`),
          );
        await context.engine.close().catch(() => undefined);
        await exec.lock.release().catch(() => undefined);
      }
      const exit = { exitCode: computeExitCode(reason, runStatus), reason };
      this.#resolveFinished(exit);
      return exit;
    })();
    return this.#closing;
  }

  /** Events of the journal, for `history.sync` and late subscribers. */
  history(): AsyncIterable<HankweaveEvent> {
    return this.context.journal.getAllEvents() as AsyncIterable<HankweaveEvent>;
  }
}

/** The newest completion on the thread, else in any run: where a new run continues from. */
function lastCompletion(
  state: HankweaveState,
): { runId: string; afterCodon: string; checkpointSha: string } | undefined {
  for (const { codon, runId } of executionThread(state).codons) {
    const sha = (codon as { completionCheckpoint?: string }).completionCheckpoint;
    if (codon.status === 'completed' && sha)
      return { runId, afterCodon: codon.codonId, checkpointSha: sha };
  }
  for (const run of state.runs) {
    for (const codon of [...run.codons].reverse()) {
      const sha = (codon as { completionCheckpoint?: string }).completionCheckpoint;
      if (codon.status === 'completed' && sha)
        return { runId: run.runId, afterCodon: codon.codonId, checkpointSha: sha };
    }
  }
  return undefined;
}

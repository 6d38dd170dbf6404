import { nodeFs } from '@hankweave/durable-io';
import type { HankweaveState, StateTransition, StateValidation } from '@hankweave/types';
import { findCrashedRuns, runCrashedTransition } from './crash-detection.js';
import { type StateError, stateError } from './errors.js';
import { isPidAlive as defaultIsPidAlive } from './lock/pid.js';
import type { RuntimeLockHandle } from './lock/runtime-lock-handle.js';
import {
  type CheckpointExists,
  type IsPidAlive,
  processWarningLogger,
  type StateIoOptions,
} from './options.js';
import { type StatePaths, statePaths } from './paths.js';
import { loadState, type RecoveryReport } from './persistence/load-state.js';
import { StateWriter, type WriterStats } from './persistence/state-writer.js';
import { reduceState } from './reducer/reduce-state.js';

/** Options of {@link StateStore.open}. */
export interface OpenStateStoreOptions extends StateIoOptions {
  /** Used by {@link StateStore.detectCrashedRuns} when no lock is given. */
  isPidAlive?: IsPidAlive;
  /** Enables the `missing_checkpoint` warning. */
  checkpointExists?: CheckpointExists;
  /** When both state files exist and are unusable: fresh state (default) or STATE_CORRUPT. */
  onUnrecoverable?: 'fresh' | 'throw';
  /**
   * The `runtime.lock` this process holds. Fences writes: every save first checks that the
   * lock on disk is still ours, and fails with STATE_LOCK_LOST instead of overwriting a
   * successor's state.
   */
  lock?: RuntimeLockHandle;
  /** Called when a save fails (default: the logger's `warn`). */
  onWriteError?: (error: StateError) => void;
}

/**
 * The single writer of `.hankweave/state.json`. `apply()` is the only way to change the state: it
 * runs the pure reducer synchronously and returns the new state, and a background writer saves
 * it durably (backup, temp file, fsync, rename, directory fsync), coalescing bursts into few
 * writes. `flush()` waits until everything applied so far is on stable storage.
 *
 * One store per execution directory and process; hold `runtime.lock` while writing.
 */
export class StateStore {
  /** The `.hankweave` directory. */
  readonly hankweaveDir: string;
  /** Paths of the files the store manages. */
  readonly paths: StatePaths;
  /** Which file the state was loaded from, why, and what was repaired in it. */
  readonly recovery: RecoveryReport;
  /** Validation of the loaded state (warnings only: a state with errors is never loaded). */
  readonly validation: StateValidation;
  private current: HankweaveState;
  private version = 0;
  private closed = false;
  private readonly writer: StateWriter;
  private readonly options: OpenStateStoreOptions;

  private constructor(
    hankweaveDir: string,
    loaded: Awaited<ReturnType<typeof loadState>>,
    options: OpenStateStoreOptions,
  ) {
    this.hankweaveDir = hankweaveDir;
    this.paths = statePaths(hankweaveDir);
    this.recovery = loaded.recovery;
    this.validation = loaded.validation;
    this.current = loaded.state;
    this.options = options;
    const logger = options.logger ?? processWarningLogger;
    const clock = options.clock ?? (() => new Date());
    this.writer = new StateWriter(
      {
        current: () => ({ version: this.version, state: this.current }),
        assertMayWrite: async () => {
          if (options.lock !== undefined && !(await options.lock.verify())) {
            throw stateError(
              'STATE_LOCK_LOST',
              `runtime.lock was taken over by another process; not writing ${this.paths.primary}.`,
              { path: this.paths.primary },
            );
          }
        },
      },
      {
        fs: options.fs ?? nodeFs,
        paths: this.paths,
        linksWork: true,
        dirReady: false,
        // A repaired primary is not a good save: it must not become state.json.bak.
        primaryGood: loaded.recovery.source === 'primary' && loaded.recovery.repairs.length === 0,
      },
      {
        paths: [
          ...loaded.recovery.rejected
            .filter((file) => file.problem !== 'missing')
            .map((file) => file.path),
          ...(loaded.recovery.repaired === undefined ? [] : [loaded.recovery.repaired.path]),
        ],
        stamp: () => clock().getTime(),
        onMoved: (moved) => {
          if (moved.length > 0)
            logger.warn(`Kept the damaged state files as ${moved.join(', ')}.`, { moved });
        },
      },
      options.onWriteError ?? ((error) => logger.warn(error.message, { code: error.code })),
    );
  }

  /**
   * Loads the state of `hankweaveDir` (recovery chain state.json → state.json.bak → fresh) and
   * validates it. Writes only when the file used had to be repaired (`recovery.repairs` not
   * empty): the original is moved aside as `<file>.corrupt-<time>` and the repaired state saved
   * durably before `open` resolves (a failed save is reported through `onWriteError` and retried
   * by the next flush). Crash detection is a separate, explicit step
   * ({@link StateStore.detectCrashedRuns}) to run after taking `runtime.lock`.
   *
   * @throws {StateError} STATE_CORRUPT when `onUnrecoverable: 'throw'` and no state file is usable.
   */
  static async open(
    hankweaveDir: string,
    options: OpenStateStoreOptions = {},
  ): Promise<StateStore> {
    const loaded = await loadState(hankweaveDir, {
      fs: options.fs,
      logger: options.logger ?? processWarningLogger,
      checkpointExists: options.checkpointExists,
      onUnrecoverable: options.onUnrecoverable,
    });
    const store = new StateStore(hankweaveDir, loaded, options);
    if (loaded.recovery.repairs.length > 0) await store.saveRepaired();
    return store;
  }

  // Makes the repaired state durable now, as if a transition had changed it. A failure was
  // already reported through onWriteError; the state stays in memory and the next flush retries.
  private async saveRepaired(): Promise<void> {
    this.version++;
    this.writer.notify(this.version);
    await this.writer.flush().catch(() => {});
  }

  /** The current state, including transitions not yet on disk. Treat it as read-only. */
  get state(): HankweaveState {
    return this.current;
  }

  /**
   * Applies one transition and returns the new state at once; the save happens in the
   * background (see {@link StateStore.flush}). An invalid transition changes nothing.
   *
   * @throws {StateError} STATE_INVALID, STATE_INVALID_TRANSITION, STATE_MISSING_METADATA,
   *   STATE_UNKNOWN_RUN, STATE_UNKNOWN_CODON, STATE_DUPLICATE_RUN as {@link reduceState} does.
   * @throws {StateError} STATE_CLOSED after {@link StateStore.close}.
   */
  apply(transition: StateTransition): HankweaveState {
    if (this.closed) {
      throw stateError('STATE_CLOSED', `The state store of ${this.hankweaveDir} is closed.`, {
        hankweaveDir: this.hankweaveDir,
      });
    }
    this.current = reduceState(this.current, transition);
    this.version++;
    this.writer.notify(this.version);
    return this.current;
  }

  /**
   * Resolves when every transition applied before the call is on stable storage.
   * @throws {StateError} STATE_WRITE_FAILED when the save that should include them failed (the
   *   state stays in memory; a later flush tries again).
   * @throws {StateError} STATE_LOCK_LOST when `lock` was given and has been lost.
   */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Marks crashed runs (reference §5.3): every run still `running` whose server is gone becomes
   * `crashed`, and its active codons `failed` (`failedDuring` = their status, exit code -1,
   * "Server crashed", partial costs kept). With the `lock` option held, every other `running` run
   * counts as crashed (no other server can be live); without it, those whose `serverPid` is dead.
   * Call it after taking the lock and before or right after your own `RunStarted`, passing your
   * run id as `exceptRunId`. Returns the run ids marked.
   */
  detectCrashedRuns(options: { exceptRunId?: string } = {}): string[] {
    const crashed = findCrashedRuns(this.current, {
      isPidAlive: this.options.isPidAlive ?? defaultIsPidAlive,
      exceptRunId: options.exceptRunId,
      exclusive: this.options.lock?.held === true,
    });
    const now = (this.options.clock ?? (() => new Date()))();
    for (const run of crashed) this.apply(runCrashedTransition(run, now));
    return crashed.map((run) => run.runId);
  }

  /** Writer counters: transitions applied, durable, saves done, last save size and time. */
  stats(): Readonly<WriterStats> {
    return { ...this.writer.stats };
  }

  /** Flushes, then refuses further transitions (STATE_CLOSED). */
  async close(): Promise<void> {
    this.closed = true;
    await this.writer.flush();
  }
}

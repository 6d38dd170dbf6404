import { hostname } from 'node:os';
import {
  appendCompletion,
  isoSeconds,
  type LoopIterationRecord,
  type LoopStateFile,
  readLoopState,
  type SessionEntry,
  type SessionLayout,
  SessionRegistry,
  sessionLayout,
  withIteration,
  writeLoopState,
  writePipelineState,
} from '@hankweave/sessions';
import type { HankConfig, HankweaveState, LoopConfig } from '@hankweave/types';
import { hankLoops } from '@hankweave/types';
import type { RuntimeLogger } from '../events/server-log.js';
import { maxIterationsOf, pipelineStateOf } from './pipeline-stages.js';
import {
  childSessionName,
  executionSessionName,
  loopKeyOf,
  pipelineKeyOf,
  sessionsProjectDir,
} from './session-names.js';

/** How the runtime ended, as the session registry records it. */
export type SessionEnding =
  | { kind: 'completed'; failed: boolean; note?: string }
  | { kind: 'killed'; note?: string };

export interface SessionTrackerOptions {
  executionDir: string;
  hankPath: string;
  hankName: string;
  dataPath: string;
  config: HankConfig;
  env: NodeJS.ProcessEnv;
  clock: () => Date;
  log: RuntimeLogger;
  /** Extra fields for the pipeline entry (`CreateRuntimeOptions.sessionFields`). */
  fields?: Record<string, string | number | boolean | null>;
}

/**
 * Keeps seed 004's files true for one open execution: its `pipeline` session and one `loop`
 * session per loop in `{project}/.claude/loop-sessions.json`, the loops' state files (the
 * iteration history plateau loops decide on) and the pipeline state. The registry is an index
 * beside state.json, which stays the record: a write that fails is logged and never fails the
 * run. Writes are queued in order; `close()` waits for them, and runs before runtime.lock is
 * released, so a session reads `running` exactly while its runtime holds the lock.
 */
export class SessionTracker {
  readonly name: string;
  readonly pipelineKey: string;
  readonly layout: SessionLayout;
  readonly registry: SessionRegistry;
  readonly #options: SessionTrackerOptions;
  /** Loop state files by loop id, as last written. */
  readonly #loops = new Map<string, LoopStateFile>();
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: SessionTrackerOptions) {
    this.#options = options;
    this.name = executionSessionName(options.executionDir);
    this.pipelineKey = pipelineKeyOf(options.executionDir);
    this.layout = sessionLayout(sessionsProjectDir(options.executionDir));
    this.registry = new SessionRegistry(this.layout.projectDir, {
      clock: options.clock,
      onWarning: (message) => options.log.warn(`Sessions: ${message}`),
    });
  }

  /** Registers the execution as running (again, when resumed) and loads its loops' histories. */
  async open(): Promise<void> {
    const { executionDir, hankPath, hankName, dataPath, env, clock } = this.#options;
    const now = isoSeconds(clock());
    await this.#attempt('register the session', () =>
      this.registry.update((sessions) => {
        const previous = sessions[this.pipelineKey];
        const diedBefore =
          previous?.status === 'running' || previous?.status === 'unknown_termination';
        sessions[this.pipelineKey] = {
          ...previous,
          type: 'pipeline',
          pipeline_file: hankPath,
          started_at: previous?.started_at ?? now,
          project_path: this.layout.projectDir,
          status: 'running',
          killed_at: null,
          completed_at: null,
          note: diedBefore
            ? `resumed after the previous process (pid ${previous?.pid ?? '?'}) ended without closing the session`
            : null,
          pid: process.pid,
          hostname: hostname(),
          execution_dir: executionDir,
          data_path: dataPath,
          hank_name: hankName,
          ...(env.CLAUDE_CONFIG_DIR ? { agent_config_dir: env.CLAUDE_CONFIG_DIR } : {}),
          ...(previous ? { resumed_at: now } : {}),
          ...this.#options.fields,
          updated_at: now,
        } satisfies SessionEntry;
      }),
    );
    for (const loop of this.#loopConfigs()) {
      const file = this.layout.loopStateFile(childSessionName(executionDir, loop.id));
      const state = await readLoopState(file).catch((error: unknown) => {
        this.#options.log.warn(`Sessions: ${(error as Error).message}; its history starts empty`);
        return undefined;
      });
      if (state) this.#loops.set(loop.id, state);
    }
  }

  /** The recorded decisions of a loop, oldest first (what plateau termination decides on). */
  history(loopId: string): readonly LoopIterationRecord[] {
    return this.#loops.get(loopId)?.history ?? [];
  }

  /**
   * An iteration of a loop begins (`iteration` is 1-based): registers the loop session when it
   * first runs, and forgets records of this iteration and later ones (left by a rollback), so
   * only decisions of the iterations that really led here count.
   */
  iterationStarting(loop: LoopConfig, iteration: number): Promise<void> {
    const now = isoSeconds(this.#options.clock());
    const previous = this.#loops.get(loop.id);
    const state: LoopStateFile = {
      ...(previous ?? {
        session: childSessionName(this.#options.executionDir, loop.id),
        type: 'loop',
        loop_type: loop.id,
        started_at: now,
      }),
      status: 'running',
      iteration: iteration - 1,
      history: (previous?.history ?? []).filter((record) => record.iteration < iteration),
      completed_at: null,
      reason: null,
    };
    this.#loops.set(loop.id, state);
    const key = loopKeyOf(this.#options.executionDir, loop.id);
    return this.#enqueue('record the loop start', async () => {
      await writeLoopState(this.layout.loopStateFile(state.session), state);
      await this.registry.update((sessions) => {
        const entry = sessions[key];
        if (entry?.status === 'running' && entry.pid === process.pid) return;
        sessions[key] = {
          ...entry,
          type: 'loop',
          loop_type: loop.id,
          started_at: iteration === 1 || !entry ? now : entry.started_at,
          project_path: this.layout.projectDir,
          max_iterations: maxIterationsOf(loop),
          status: 'running',
          killed_at: null,
          completed_at: null,
          note: entry?.note ?? null,
          pid: process.pid,
          hostname: hostname(),
          execution_dir: this.#options.executionDir,
          parent: this.pipelineKey,
          updated_at: now,
        } satisfies SessionEntry;
      });
    });
  }

  /** Records an iteration's decision in the loop's history (in memory at once, then on disk). */
  recordIteration(loopId: string, record: LoopIterationRecord): Promise<void> {
    const previous = this.#loops.get(loopId);
    if (!previous) return Promise.resolve();
    const state = withIteration(previous, record);
    this.#loops.set(loopId, state);
    return this.#enqueue('record the iteration', () =>
      writeLoopState(this.layout.loopStateFile(state.session), state),
    );
  }

  /** A loop ended after `iterations` iterations: its state, registry entry and completion log. */
  loopEnded(loopId: string, iterations: number, reason: string, failed: boolean): Promise<void> {
    const previous = this.#loops.get(loopId);
    if (!previous) return Promise.resolve();
    const now = isoSeconds(this.#options.clock());
    const state: LoopStateFile = {
      ...previous,
      status: failed ? 'failed' : 'completed',
      iteration: iterations,
      completed_at: now,
      reason,
    };
    this.#loops.set(loopId, state);
    const key = loopKeyOf(this.#options.executionDir, loopId);
    return this.#enqueue('record the loop end', async () => {
      await writeLoopState(this.layout.loopStateFile(state.session), state);
      await this.registry.setStatus(key, 'completed', {
        at: new Date(now),
        note: failed ? `failed: ${reason}` : null,
      });
      await appendCompletion(this.layout.projectDir, {
        session: key,
        type: 'loop',
        status: failed ? 'failed' : 'completed',
        at: now,
        reason,
        iterations,
      });
    });
  }

  /** Rewrites the pipeline state from state.json (stages follow the hank's top-level entries). */
  syncPipeline(
    state: HankweaveState,
    status: 'running' | 'completed' | 'failed' | 'killed' = 'running',
  ): Promise<void> {
    const pipeline = pipelineStateOf({
      session: this.name,
      hankName: this.#options.hankName,
      config: this.#options.config,
      state,
      loops: this.#loops,
      status,
      now: this.#options.clock(),
    });
    return this.#enqueue('write the pipeline state', () =>
      writePipelineState(this.layout.pipelineStateFile(this.name), pipeline),
    );
  }

  /**
   * The runtime is stopping: the pipeline session (and its loops still running) become
   * `completed` or `killed`, and the completion is logged. Waits for every queued write.
   */
  async close(state: HankweaveState, ending: SessionEnding): Promise<void> {
    if (this.#closed) return this.#queue;
    const status = ending.kind === 'killed' ? 'killed' : ending.failed ? 'failed' : 'completed';
    void this.syncPipeline(state, status);
    this.#closed = true;
    const at = this.#options.clock();
    const registryStatus = ending.kind === 'killed' ? 'killed' : 'completed';
    const note = ending.note ?? null;
    await this.#enqueue('close the session', async () => {
      await this.registry.update((sessions) => {
        for (const [key, entry] of Object.entries(sessions)) {
          const ours =
            key === this.pipelineKey ||
            (entry.parent === this.pipelineKey && entry.status === 'running');
          if (!ours || entry.pid !== process.pid) continue;
          sessions[key] = {
            ...entry,
            status: registryStatus,
            ...(registryStatus === 'killed'
              ? { killed_at: isoSeconds(at) }
              : { completed_at: isoSeconds(at) }),
            ...(key === this.pipelineKey ? { note } : {}),
            updated_at: isoSeconds(at),
          };
        }
      });
      await appendCompletion(this.layout.projectDir, {
        session: this.pipelineKey,
        type: 'pipeline',
        status: ending.kind === 'killed' ? 'killed' : ending.failed ? 'failed' : 'completed',
        at: isoSeconds(at),
        reason: note,
      });
    });
  }

  /** Resolves once every queued write is done (or logged as failed). */
  settled(): Promise<void> {
    return this.#queue;
  }

  #loopConfigs(): LoopConfig[] {
    return hankLoops(this.#options.config);
  }

  #enqueue(what: string, write: () => Promise<unknown>): Promise<void> {
    // Nothing is written once the session is closed: the lock may be another runtime's by then.
    if (this.#closed && what !== 'close the session') return this.#queue;
    this.#queue = this.#queue.then(() => this.#attempt(what, write));
    return this.#queue;
  }

  async #attempt(what: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.#options.log.warn(
        `Sessions: could not ${what} in ${this.layout.claudeDir}: ${(error as Error).message} (the run goes on; state.json keeps the record)`,
      );
    }
  }
}

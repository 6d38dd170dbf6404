import { type Fs, nodeFs } from '@hankweave/durable-io';
import {
  type CodonSentinelEntry,
  defaultModelCatalog,
  type HankweaveEvent,
  isConnectionStateEvent,
  isSentinelEvent,
  type ModelCatalog,
  type SentinelState,
  selectHarness,
} from '@hankweave/types';
import { SentinelError } from './errors.js';
import { entryRef, loadDefinition, type SentinelDefinition } from './internal/config-loader.js';
import { HistoryStore } from './internal/history.js';
import type { LlmStack } from './internal/llm-stack.js';
import { OutputWriter, resolveOutputTargets, unescapeJoin } from './internal/outputs.js';
import { SentinelRunner } from './internal/sentinel-runner.js';
import type { SentinelLogger, SentinelManagerOptions } from './options.js';

// `gpt-5.2-high` is priced as `openai/gpt-5.2`: the effort suffix picks no other model.
function pricedAs(modelId: string, models: ModelCatalog): string {
  const { provider, model } = selectHarness(modelId, models);
  return provider === 'unknown' ? modelId : `${provider}/${model}`;
}

const silent: SentinelLogger = { info: () => {}, warn: () => {} };

// The AI SDK loads with the first sentinel, not with this package (see llm-stack.ts).
let llmStack: Promise<LlmStack> | undefined;
const loadLlmStack = (): Promise<LlmStack> => {
  llmStack ??= import('./internal/llm-stack.js');
  return llmStack;
};

/** One entry that did not load; `fatal` is the entry's `failCodonIfNotLoaded`. */
export interface FailedSentinel {
  ref: string;
  error: string;
  fatal: boolean;
}

/**
 * Runs a codon's sentinels. One instance serves a whole run: `loadForCodon` replaces the previous
 * codon's sentinels (per codon and per loop iteration). It satisfies the runtime's `SentinelHost`
 * structurally. Nothing here throws at the runtime after load, and `observe()` never waits.
 */
export class SentinelManager {
  private runners: SentinelRunner[] = [];
  private readonly logger: SentinelLogger;
  private readonly now: () => number;
  private readonly models: ModelCatalog;
  private readonly fs: Fs;

  constructor(private readonly options: SentinelManagerOptions) {
    this.logger = options.logger ?? silent;
    this.now = options.clock ?? Date.now;
    this.models = options.models ?? defaultModelCatalog;
    this.fs = options.fs ?? nodeFs;
  }

  /**
   * Loads a codon's sentinel entries (unloading the previous codon's with `codon-complete`).
   * Emits `sentinel.loaded` per sentinel; entries that fail are returned, never thrown.
   */
  async loadForCodon(input: {
    codonId: string;
    codonName: string;
    entries: readonly CodonSentinelEntry[];
  }): Promise<{ states: SentinelState[]; failed: FailedSentinel[] }> {
    if (this.runners.length > 0) await this.unload('codon-complete');
    const cache = new Map<string, Promise<unknown>>();
    const settled = await Promise.allSettled(
      input.entries.map((entry) => loadDefinition(entry, this.options.hankDir, cache)),
    );
    const failed: FailedSentinel[] = [];
    const ids = new Set<string>();
    const startTime = new Date(this.now()).toISOString();
    for (const [index, outcome] of settled.entries()) {
      const entry = input.entries[index] as CodonSentinelEntry;
      try {
        if (outcome.status === 'rejected') throw outcome.reason;
        const def = outcome.value;
        if (ids.has(def.config.id)) {
          throw new SentinelError(
            'SENTINEL_DUPLICATE_ID',
            `Sentinel id "${def.config.id}" is used twice in codon ${input.codonId}`,
            { details: { sentinelId: def.config.id } },
          );
        }
        const runner = await this.instantiate(def, input.codonId, input.codonName, startTime);
        ids.add(def.config.id);
        this.runners.push(runner);
      } catch (error) {
        const ref = entryRef(entry);
        const message = error instanceof Error ? error.message : String(error);
        failed.push({ ref, error: message, fatal: entry.settings?.failCodonIfNotLoaded ?? false });
        this.logger.warn(`Sentinel ${ref} was not loaded: ${message}`, { ref });
      }
    }
    this.notify();
    return { states: this.states(), failed };
  }

  /** Routes one event to every sentinel; sentinel and connection events are ignored. */
  observe(event: HankweaveEvent): void {
    if (isSentinelEvent(event) || isConnectionStateEvent(event)) return;
    for (const runner of this.runners) {
      try {
        runner.observe(event);
      } catch (error) {
        this.logger.warn('A sentinel failed to observe an event', {
          error: (error as Error).message,
        });
      }
    }
  }

  /** Fires pending debounce / count / time-window batches and waits for every queue. */
  async drain(): Promise<SentinelState[]> {
    await Promise.all(this.runners.map((runner) => runner.drain()));
    return this.states();
  }

  /**
   * Unloads every sentinel once its work is done; returns their final states. Intake closes
   * first: a sentinel whose queue is idle could otherwise take an event while another still waits
   * on its call, start a call the final counters miss, and report after them. Once closed, no
   * queue takes new work, so one wait for every queue covers every call.
   */
  async unload(reason: 'codon-complete' | 'shutdown'): Promise<SentinelState[]> {
    const closing = this.runners;
    for (const runner of closing) runner.closeIntake();
    await Promise.all(closing.map((runner) => runner.drain()));
    for (const runner of closing) runner.unload(reason);
    const states = closing.map((runner) => ({ ...runner.state }));
    this.runners = this.runners.filter((runner) => !closing.includes(runner));
    return states;
  }

  /** Sentinels currently loaded and active. */
  loadedCount(): number {
    return this.runners.filter((runner) => runner.active).length;
  }

  /** A copy of the current sentinels' states. */
  states(): SentinelState[] {
    return this.runners.map((runner) => ({ ...runner.state }));
  }

  private async instantiate(
    def: SentinelDefinition,
    codonId: string,
    codonName: string,
    codonStartTime: string,
  ): Promise<SentinelRunner> {
    const { config } = def;
    const { options } = this;
    const llm = await loadLlmStack();
    const { model, provider } = options.modelFactory
      ? { model: options.modelFactory(config.model), provider: undefined }
      : llm.resolveModel(config.model, {
          env: options.env ?? process.env,
          models: this.models,
          ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }),
          ...(options.api !== undefined && { api: options.api }),
        });
    const structured = llm.prepareStructured(config, def.outputSchema, def.ref);
    const loadedAtMs = this.now();
    const targets = resolveOutputTargets({
      hankweaveDir: options.hankweaveDir,
      agentRoot: options.agentRoot,
      sentinelId: config.id,
      codonId,
      loadedAtMs,
      mode: structured ? 'structured' : config.output?.format === 'jsonl' ? 'jsonl' : 'text',
      ...def.outputPaths,
    });
    const outputs = new OutputWriter(
      targets,
      config.id,
      unescapeJoin(config.joinString),
      this.fs,
      this.logger,
    );
    await outputs.create();
    const trimming = config.conversational?.trimmingStrategy;
    const history = trimming
      ? new HistoryStore(
          options.hankweaveDir,
          config.id,
          codonId,
          trimming,
          this.logger,
          this.now,
          this.fs,
          options.persistHistory ?? true,
        )
      : undefined;
    const runner = new SentinelRunner(def, {
      codonId,
      codonName,
      codonStartTime,
      model,
      defaultTemperature: llm.defaultTemperatureFor(provider),
      llm,
      structured,
      outputs,
      history,
      emit: options.emit,
      logger: this.logger,
      now: this.now,
      models: this.models,
      pricedAs: pricedAs(config.model, this.models),
      onChange: () => this.notify(),
      maxQueuedTriggers: options.maxQueuedTriggers ?? 100,
      maxQueuedEvents: options.maxQueuedEvents ?? 10_000,
    });
    if (def.report.lifecycle) {
      this.emitSafely('sentinel.loaded', {
        sentinelId: config.id,
        codonId,
        model: config.model,
        triggerType: config.trigger.type,
        executionStrategy: config.execution.strategy,
        conversational: config.conversational !== undefined,
        source: def.source,
        ...(def.sourcePath ? { sourcePath: def.sourcePath } : {}),
      });
    }
    return runner;
  }

  private emitSafely(type: 'sentinel.loaded', data: Record<string, unknown>): void {
    try {
      this.options.emit(type, data);
    } catch (error) {
      this.logger.warn(`emitting ${type} failed`, { error: (error as Error).message });
    }
  }

  private notify(): void {
    if (!this.options.onStatesChanged) return;
    const states = this.states();
    const totalCost = states.reduce((sum, state) => sum + state.totalCost, 0);
    try {
      this.options.onStatesChanged(states, totalCost);
    } catch (error) {
      this.logger.warn('onStatesChanged threw', { error: (error as Error).message });
    }
  }
}

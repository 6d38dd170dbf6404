import type { HankweaveEvent, ModelCatalog, SentinelState, TokenUsage } from '@hankweave/types';
import type { LanguageModel, ModelMessage } from 'ai';
import { SentinelError } from '../errors.js';
import type { SentinelEmit, SentinelLogger } from '../options.js';
import type { SentinelDefinition } from './config-loader.js';
import type { HistoryStore } from './history.js';
import type { LlmStack } from './llm-stack.js';
import { type CallResult, type StructuredSpec, totalInputTokens } from './llm-usage.js';
import type { OutputWriter } from './outputs.js';
import { SerialQueue } from './serial-queue.js';
import { type Batcher, createBatcher } from './strategies.js';
import { PromptTemplate } from './templates.js';
import { createTriggerMatcher, type TriggerMatcher } from './triggers.js';

/** What a runner needs besides its definition; built by the manager at load. */
export interface RunnerContext {
  codonId: string;
  codonName: string;
  codonStartTime: string;
  model: LanguageModel;
  /** The temperature when the config sets none (0; none for OpenAI's Responses API). */
  defaultTemperature: number | undefined;
  structured: StructuredSpec | undefined;
  /** The AI SDK side, loaded with the first sentinel. */
  llm: Pick<LlmStack, 'callModel' | 'usageOfFailure'>;
  outputs: OutputWriter;
  history: HistoryStore | undefined;
  emit: SentinelEmit;
  logger: SentinelLogger;
  now: () => number;
  models: ModelCatalog;
  /** The id calls are priced as: the model id routed, without an effort suffix. */
  pricedAs: string;
  onChange: () => void;
  maxQueuedTriggers: number;
  maxQueuedEvents: number;
}

interface Batch {
  events: HankweaveEvent[];
  queuedAt: number;
}

type UnloadReason = 'codon-complete' | 'fatal-error' | 'consecutive-failures' | 'shutdown';
type ErrorType = 'llm-call-failed' | 'template-render-failed' | 'file-write-failed';

const MAX_TEMPLATE_EVENTS = 1000;

/** One loaded sentinel: trigger → strategy → serial queue → template → LLM → outputs. */
export class SentinelRunner {
  readonly state: SentinelState;
  private readonly matcher: TriggerMatcher;
  private readonly batcher: Batcher;
  private readonly queue: SerialQueue<Batch>;
  private readonly systemTemplate: PromptTemplate | undefined;
  private readonly userTemplate: PromptTemplate;
  private triggerNumber = 0;
  private consecutiveFailures = 0;
  private intakeClosed = false;
  private warnedUnpriced = false;

  constructor(
    private readonly def: SentinelDefinition,
    private readonly ctx: RunnerContext,
  ) {
    const { config } = def;
    this.state = {
      id: config.id,
      model: config.model,
      loadedAt: this.iso(),
      llmCallCount: 0,
      failedLLMCalls: 0,
      totalTriggers: 0,
      totalCost: 0,
      status: 'active',
    };
    this.matcher = createTriggerMatcher(config.trigger);
    this.batcher = createBatcher(config.execution, (events) => this.fire(events), ctx.now);
    this.queue = new SerialQueue((batch) => this.run(batch), {
      maxItems: ctx.maxQueuedTriggers,
      maxWeight: ctx.maxQueuedEvents,
      weight: (batch) => batch.events.length,
      onDrop: (batch, reason) =>
        ctx.logger.warn(`Sentinel ${config.id}: dropped the oldest queued trigger (${reason})`, {
          sentinelId: config.id,
          eventCount: batch.events.length,
        }),
    });
    this.systemTemplate =
      def.systemPrompt === undefined ? undefined : new PromptTemplate(def.systemPrompt, 'system');
    this.userTemplate = new PromptTemplate(def.userPrompt, 'user');
  }

  get active(): boolean {
    return this.state.status === 'active';
  }

  /** Synchronous and cheap: matching and batching only; any LLM work is queued. */
  observe(event: HankweaveEvent): void {
    if (!this.active || this.intakeClosed) return;
    const matched = this.matcher.match(event);
    if (matched) this.batcher.add(matched);
  }

  /** Fires pending batches and waits for the queue to empty. */
  async drain(): Promise<void> {
    if (this.active) this.batcher.flush();
    await this.queue.idle();
  }

  /**
   * The first step of an unload: takes no more events and fires the pending batch, so that once
   * the queue is idle no call can start any more and the final counters hold every call paid for.
   */
  closeIntake(): void {
    if (!this.active || this.intakeClosed) return;
    this.intakeClosed = true;
    this.batcher.flush();
    this.batcher.stop();
  }

  /** Stops the sentinel and reports `sentinel.unloaded` (once). */
  unload(reason: UnloadReason, errorType?: 'template' | 'configuration'): void {
    if (!this.active) return;
    this.batcher.stop();
    this.queue.stop();
    this.state.status = 'unloaded';
    this.state.unloadedAt = this.iso();
    this.state.unloadReason = reason;
    if (this.def.report.lifecycle) {
      this.send('sentinel.unloaded', {
        reason,
        ...(errorType ? { errorType } : {}),
        finalCost: this.state.totalCost,
        llmCallCount: this.state.llmCallCount,
      });
    }
    this.ctx.onChange();
  }

  private fire(events: HankweaveEvent[]): void {
    this.queue.push({ events, queuedAt: this.ctx.now() });
  }

  private async run(batch: Batch): Promise<void> {
    if (!this.active) return;
    const { config } = this.def;
    this.triggerNumber += 1;
    this.state.totalTriggers += 1;
    if (this.def.report.triggers) {
      this.send('sentinel.triggered', {
        triggerNumber: this.triggerNumber,
        strategy: config.execution.strategy,
        eventCount: batch.events.length,
        queueSize: this.queue.size,
      });
    }
    const prompts = this.render(batch);
    if (!prompts) return;
    const history = this.ctx.history ? await this.ctx.history.context() : [];
    const messages: ModelMessage[] = [
      ...history.flatMap((turn): ModelMessage[] =>
        turn.role === 'system' ? [] : [{ role: turn.role, content: turn.content }],
      ),
      { role: 'user', content: prompts.user },
    ];
    this.state.llmCallCount += 1;
    this.state.lastLlmCallAt = this.iso();
    let result: CallResult;
    try {
      result = await this.ctx.llm.callModel({
        model: this.ctx.model,
        system: prompts.system,
        messages,
        config,
        structured: this.ctx.structured,
        defaultTemperature: this.ctx.defaultTemperature,
      });
    } catch (error) {
      this.onCallFailed(error);
      return;
    }
    this.consecutiveFailures = 0;
    const cost = this.price(result.usage);
    this.state.totalCost += cost;
    const timestamp = this.iso();
    // Acknowledge after durable: the output and the history are fsynced before `sentinel.output`
    // reports them. A write that fails is reported first (`file-write-failed`); the output is
    // still emitted, since its journaled event is then the only copy of an answer paid for.
    try {
      await this.ctx.outputs.write(result.content, this.triggerNumber, timestamp);
    } catch (error) {
      this.reportError('file-write-failed', (error as Error).message, true);
    }
    if (this.ctx.history) {
      const answer =
        typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
      await this.ctx.history
        .append(
          { role: 'user', content: prompts.user, tokenCount: Math.ceil(prompts.user.length / 4) },
          { role: 'assistant', content: answer, tokenCount: result.usage.outputTokens },
        )
        .catch((error: Error) => this.reportError('file-write-failed', error.message, true));
    }
    if (this.def.report.outputs) {
      this.send('sentinel.output', {
        triggerNumber: this.triggerNumber,
        outputType: result.outputType,
        content: result.content,
        cost,
        tokens: { input: totalInputTokens(result.usage), output: result.usage.outputTokens },
        eventCount: batch.events.length,
      });
    }
    this.ctx.onChange();
  }

  private render(batch: Batch): { system: string | undefined; user: string } | undefined {
    const it = {
      events: batch.events.slice(-MAX_TEMPLATE_EVENTS),
      codon: { id: this.ctx.codonId, name: this.ctx.codonName, startTime: this.ctx.codonStartTime },
      world: { currentTime: new Date(batch.queuedAt).toISOString() },
      sentinel: { id: this.def.config.id, name: this.def.config.name },
    };
    try {
      return { system: this.systemTemplate?.render(it), user: this.userTemplate.render(it) };
    } catch (error) {
      const message = (error as Error).message;
      const syntax = SentinelError.is(error, 'SENTINEL_TEMPLATE_SYNTAX');
      this.reportError('template-render-failed', message, !syntax);
      if (syntax && (this.def.config.errorHandling?.unloadOnFatalError ?? true)) {
        this.ctx.logger.warn(`Sentinel ${this.def.config.id} unloaded: ${message}`);
        this.unload('fatal-error', 'template');
      }
      return undefined;
    }
  }

  private onCallFailed(error: unknown): void {
    const { config } = this.def;
    this.state.failedLLMCalls += 1;
    const usage = this.ctx.llm.usageOfFailure(error);
    if (usage) this.state.totalCost += this.price(usage);
    // A conversational sentinel with continueOnError keeps going whatever happens.
    if (!config.conversational?.continueOnError) this.consecutiveFailures += 1;
    const cause = (error as { cause?: unknown }).cause;
    const detail = SentinelError.is(cause) ? ` (${cause.message})` : '';
    this.reportError('llm-call-failed', `${(error as Error).message}${detail}`, true);
    const max = config.errorHandling?.maxConsecutiveFailures ?? 3;
    if (this.consecutiveFailures >= max) this.unload('consecutive-failures');
    else this.ctx.onChange();
  }

  private price(usage: TokenUsage): number {
    const { cost, known } = this.ctx.models.priceUsage(this.ctx.pricedAs, usage);
    if (!known && !this.warnedUnpriced) {
      this.warnedUnpriced = true;
      this.ctx.logger.warn(`Sentinel ${this.def.config.id}: no price for ${this.def.config.model}`);
    }
    return cost;
  }

  private reportError(errorType: ErrorType, message: string, retriable: boolean): void {
    if (!this.def.report.errors) return;
    this.send('sentinel.error', {
      errorType,
      message,
      retriable,
      consecutiveFailureCount: this.consecutiveFailures,
    });
  }

  private send(type: Parameters<SentinelEmit>[0], data: Record<string, unknown>): void {
    try {
      this.ctx.emit(type, { sentinelId: this.def.config.id, codonId: this.ctx.codonId, ...data });
    } catch (error) {
      this.ctx.logger.warn(`Sentinel ${this.def.config.id}: emitting ${type} failed`, {
        error: (error as Error).message,
      });
    }
  }

  private iso(): string {
    return new Date(this.ctx.now()).toISOString();
  }
}

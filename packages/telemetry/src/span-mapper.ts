import {
  defaultModelCatalog,
  type EventEnvelope,
  type HankweaveEvent,
  type TokenUsage,
} from '@hankweave/types';
import { GEN_AI, HANKWEAVE } from './attributes.js';

/** A value an attribute may hold (OpenTelemetry's, without arrays of mixed types). */
export type SpanAttributeValue = string | number | boolean | string[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

/** A point in time inside a span (OpenTelemetry's span event). */
export interface SpanEventRecord {
  name: string;
  timeMs: number;
  attributes: SpanAttributes;
}

/** What a span of the tree says: plain data, before any SDK sees it. */
export interface SpanRecord {
  /** This mapper's id for the span (unique within one mapping), not an OpenTelemetry span id. */
  id: string;
  /** The parent's `id`; undefined for a root (a run, or a rollback outside any run). */
  parentId: string | undefined;
  name: string;
  /** `client` for a model request (the GenAI conventions' kind), else `internal`. */
  kind: 'internal' | 'client';
  /** Epoch milliseconds, from the events' timestamps. */
  startMs: number;
  /** Epoch milliseconds; set when the span has ended. */
  endMs: number | undefined;
  attributes: SpanAttributes;
  events: SpanEventRecord[];
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
}

/** Options of {@link SpanMapper} and {@link mapEventsToSpans}. */
export interface SpanMapperOptions {
  /**
   * Put prompts' answers, thinking, tool arguments and results, rig output and sentinel outputs
   * on the spans. Off by default: they may hold secrets.
   */
  captureContent?: boolean;
  /**
   * Attributes every run span carries (the CLI gives the hank's name and the execution dir); a
   * function is called when the run starts.
   */
  runAttributes?: SpanAttributes | (() => SpanAttributes);
  /** Called when a span starts (its parent has started before it). */
  onStart?: (span: SpanRecord) => void;
  /** Called when a span ends, with its final attributes; children end before their parent. */
  onEnd?: (span: SpanRecord) => void;
}

/** Longest content value kept on a span when content is captured (the rest is cut). */
export const MAX_CONTENT_LENGTH = 8192;

type AnyEvent = HankweaveEvent | EventEnvelope;
type Transition = { type: string; data: Record<string, unknown> };

interface TurnState {
  span: SpanRecord;
  /** When the answer arrived (the token.usage event): the span's end. */
  endMs: number;
  actions: number;
  toolUse: boolean;
  messages: Array<Record<string, unknown>>;
}

interface CodonState {
  codonId: string;
  runId: string | undefined;
  span: SpanRecord;
  /** When the next model request began: the agent's start, the last answer or tool result. */
  boundaryMs: number | undefined;
  lastEventMs: number;
  turn: TurnState | undefined;
  turnCount: number;
  modelId: string | undefined;
  sessionId: string | undefined;
  tools: Map<string, SpanRecord>;
  rigLines: SpanEventRecord[];
  rigLineCount: number;
  firstRigOutputMs: number | undefined;
  filesChanged: number;
  usage: TokenUsage;
  cost: number;
  finalSet: boolean;
  terminal: boolean;
}

interface RunState {
  span: SpanRecord;
  runId: string;
  branch: string | undefined;
  lastEventMs: number;
  cost: number;
  sentinelCost: number;
  usage: TokenUsage;
}

const emptyUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
});

const TERMINAL = new Set(['completed', 'failed', 'skipped']);

/** The GenAI conventions' usage attributes of hankweave's token counts. */
export function usageAttributes(usage: TokenUsage): SpanAttributes {
  // The conventions' input_tokens include cached tokens; hankweave's (Anthropic's) do not.
  return {
    [GEN_AI.inputTokens]: usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    [GEN_AI.cacheReadInputTokens]: usage.cacheReadTokens,
    [GEN_AI.cacheCreationInputTokens]: usage.cacheCreationTokens,
    [HANKWEAVE.uncachedInputTokens]: usage.inputTokens,
  };
}

const providers = new Map<string, string>();

/** The provider that serves a model id, by the model catalog (`anthropic`, `openai`, ...). */
export function providerOf(modelId: string): string {
  let provider = providers.get(modelId);
  if (provider === undefined) {
    try {
      provider = defaultModelCatalog.route(modelId).provider;
    } catch {
      provider = 'unknown';
    }
    // A run names a handful of models: the cache stays small (bounded anyway).
    if (providers.size < 1000) providers.set(modelId, provider);
  }
  return provider;
}

function clip(text: string): string {
  return text.length > MAX_CONTENT_LENGTH ? `${text.slice(0, MAX_CONTENT_LENGTH)}…` : text;
}

function asJson(value: unknown): string {
  if (typeof value === 'string') return clip(value);
  try {
    return clip(JSON.stringify(value) ?? '');
  } catch {
    return '';
  }
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.inputTokens += add.inputTokens;
  into.outputTokens += add.outputTokens;
  into.cacheCreationTokens += add.cacheCreationTokens;
  into.cacheReadTokens += add.cacheReadTokens;
}

function usageOf(data: Record<string, unknown>): TokenUsage {
  return {
    inputTokens: num(data.inputTokens) ?? 0,
    outputTokens: num(data.outputTokens) ?? 0,
    cacheCreationTokens: num(data.cacheCreationTokens) ?? 0,
    cacheReadTokens: num(data.cacheReadTokens) ?? 0,
  };
}

/**
 * Turns hankweave's event stream (a journal, read from the start, or the live events of a
 * runtime) into a span tree, one event at a time:
 *
 * ```
 * run                                  RunStarted … RunCompleted | RunFailed
 * ├─ codon <id>                        CodonStarted … codon.completed (one span per attempt)
 * │  ├─ rig setup                      rig.setup.completed | rig.setup.failed
 * │  ├─ chat <model>                   one model request: token.usage and its actions
 * │  ├─ execute_tool <name>            assistant.action tool_use … tool.result
 * │  ├─ sentinel <id>                  sentinel.triggered … sentinel.output | sentinel.error
 * │  └─ checkpoint <type>              CheckpointCreated
 * └─ rollback                          rollback.started … rollback.completed
 * ```
 *
 * Pure: the only inputs are the events (their timestamps give every time) and the options; the
 * outputs are the `onStart`/`onEnd` calls. Unknown event types are ignored, so journals of newer
 * runtimes map too.
 */
export class SpanMapper {
  private readonly options: SpanMapperOptions;
  private readonly runs = new Map<string, RunState>();
  private readonly codons = new Map<string, CodonState>();
  private readonly sentinelCalls = new Map<string, SpanRecord>();
  private readonly sentinelModels = new Map<string, string>();
  private rollback: SpanRecord | undefined;
  private currentRunId: string | undefined;
  private sequence = 0;
  private lastMs = 0;

  constructor(options: SpanMapperOptions = {}) {
    this.options = options;
  }

  /** Maps one event. Events must come in journal order. */
  push(event: AnyEvent): void {
    const parsed = Date.parse(event.timestamp);
    const t = Number.isFinite(parsed) ? parsed : this.lastMs;
    this.lastMs = Math.max(this.lastMs, t);
    const data = obj(event.data);
    if (event.type !== 'state.transition') {
      const codonId = str(data.codonId) ?? str(data.codon);
      const codon = codonId !== undefined ? this.codons.get(codonId) : undefined;
      if (codon) {
        if (event.type !== 'assistant.action') this.closeTurn(codon);
        codon.lastEventMs = t;
      }
      const run = this.currentRun();
      if (run) run.lastEventMs = t;
    }
    switch (event.type) {
      case 'state.transition':
        this.transition(obj(data.transition) as Transition, t);
        break;
      case 'codon.started':
        this.codonStarted(data);
        break;
      case 'token.usage':
        this.tokenUsage(data, t);
        break;
      case 'assistant.action':
        this.assistantAction(data, t);
        break;
      case 'tool.result':
        this.toolResult(data, t);
        break;
      case 'rig.output':
        this.rigOutput(data, t);
        break;
      case 'rig.setup.completed':
      case 'rig.setup.failed':
        this.rigSetup(event.type, data, t);
        break;
      case 'file.updated': {
        const codon = this.codonOf(data);
        if (codon) codon.filesChanged++;
        break;
      }
      case 'codon.extended':
        this.codonOf(data)?.span.events.push({
          name: 'codon.extended',
          timeMs: t,
          attributes: { 'hankweave.extension.number': num(data.extensionNumber) ?? 0 },
        });
        break;
      case 'codon.completed':
        this.codonCompleted(data, t);
        break;
      case 'sentinel.loaded':
        this.sentinelModels.set(str(data.sentinelId) ?? '', str(data.model) ?? '');
        break;
      case 'sentinel.triggered':
        this.sentinelSpan(data, t);
        break;
      case 'sentinel.output':
      case 'sentinel.error':
        this.sentinelDone(event.type, data, t);
        break;
      case 'sentinel.unloaded':
        for (const [key, span] of this.sentinelCalls) {
          if (key.startsWith(`${str(data.codonId)}|${str(data.sentinelId)}|`)) {
            this.sentinelCalls.delete(key);
            this.end(span, t, true);
          }
        }
        break;
      case 'rollback.started':
        this.rollbackStarted(data, t);
        break;
      case 'rollback.progress':
      case 'rollback.codonCheckpoint':
      case 'rollback.rigCleanup':
      case 'rollback.archiveRestore':
        this.rollback?.events.push({
          name: event.type,
          timeMs: t,
          attributes: this.flat(data, ['message', 'codonId', 'status', 'checkpoint']),
        });
        break;
      case 'rollback.completed':
        this.rollbackCompleted(data, t);
        break;
      case 'error':
        this.error(data, t);
        break;
      case 'loop.iteration.completed':
      case 'loop.iteration.decision':
        this.currentRun()?.span.events.push({
          name: event.type,
          timeMs: t,
          attributes: this.flat(data, [
            'loopId',
            'iteration',
            'codonId',
            'isFinal',
            'terminationReason',
            'decision',
          ]),
        });
        break;
      default:
        break;
    }
  }

  /**
   * Ends every span still open (a journal cut short, a crashed run, the end of a live run) at the
   * time of its last event, marked `hankweave.span.incomplete`.
   */
  finish(): void {
    for (const span of this.sentinelCalls.values()) this.end(span, undefined, true);
    this.sentinelCalls.clear();
    for (const codon of [...this.codons.values()]) this.endCodon(codon, undefined, !codon.terminal);
    if (this.rollback) this.end(this.rollback, undefined, true);
    this.rollback = undefined;
    for (const run of [...this.runs.values()]) this.endRun(run, run.lastEventMs, true);
  }

  private currentRun(): RunState | undefined {
    return this.currentRunId !== undefined ? this.runs.get(this.currentRunId) : undefined;
  }

  private codonOf(data: Record<string, unknown>): CodonState | undefined {
    const codonId = str(data.codonId) ?? str(data.codon);
    return codonId !== undefined ? this.codons.get(codonId) : undefined;
  }

  private flat(data: Record<string, unknown>, keys: string[]): SpanAttributes {
    const out: SpanAttributes = {};
    for (const key of keys) {
      const value = data[key];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        out[`hankweave.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`] = value;
    }
    return out;
  }

  private open(
    name: string,
    parent: SpanRecord | undefined,
    startMs: number,
    attributes: SpanAttributes,
    kind: SpanRecord['kind'] = 'internal',
  ): SpanRecord {
    const span: SpanRecord = {
      id: `s${++this.sequence}`,
      parentId: parent?.id,
      name,
      kind,
      startMs,
      endMs: undefined,
      attributes,
      events: [],
      status: { code: 'unset' },
    };
    this.options.onStart?.(span);
    return span;
  }

  private end(span: SpanRecord, atMs: number | undefined, incomplete = false): void {
    if (span.endMs !== undefined) return;
    span.endMs = Math.max(span.startMs, atMs ?? this.lastMs);
    if (incomplete) span.attributes[HANKWEAVE.incomplete] = true;
    this.options.onEnd?.(span);
  }

  private transition(transition: Transition, t: number): void {
    const data = obj(transition.data);
    const runId = str(data.runId);
    const run = runId !== undefined ? this.runs.get(runId) : undefined;
    if (run) run.lastEventMs = t;
    const codonId = str(data.codonId);
    const codon = codonId !== undefined ? this.codons.get(codonId) : undefined;
    // A checkpoint's commit runs from the codon's previous event to its transition.
    const previousMs = codon?.lastEventMs ?? t;
    if (codon && transition.type !== 'CodonStarted') {
      this.closeTurn(codon);
      codon.lastEventMs = t;
    }
    switch (transition.type) {
      case 'RunStarted': {
        for (const open of [...this.runs.values()]) this.endRun(open, open.lastEventMs, true);
        const id = runId ?? `run-${this.sequence}`;
        const start = Date.parse(str(data.startTime) ?? '');
        const branch = str(data.gitBranch);
        const extra = this.options.runAttributes;
        const span = this.open('run', this.rollback, Number.isFinite(start) ? start : t, {
          ...(typeof extra === 'function' ? extra() : extra),
          [HANKWEAVE.runId]: id,
          ...(branch !== undefined ? { [HANKWEAVE.runBranch]: branch } : {}),
          [HANKWEAVE.runStartingConditions]: str(obj(data.startingConditions).type) ?? 'unknown',
        });
        this.runs.set(id, {
          span,
          runId: id,
          branch,
          lastEventMs: t,
          cost: 0,
          sentinelCost: 0,
          usage: emptyUsage(),
        });
        this.currentRunId = id;
        break;
      }
      case 'RunCompleted':
      case 'RunFailed':
        if (run) {
          const end = Date.parse(str(data.endTime) ?? '');
          if (transition.type === 'RunFailed') {
            run.span.status = { code: 'error', message: str(data.reason) ?? 'run failed' };
          } else run.span.status = { code: 'ok' };
          run.span.attributes[HANKWEAVE.runStatus] =
            transition.type === 'RunCompleted' ? 'completed' : 'failed';
          this.endRun(run, Number.isFinite(end) ? end : t, false);
        }
        break;
      case 'RunCrashed':
        if (run) {
          run.span.status = { code: 'error', message: 'crashed' };
          run.span.attributes[HANKWEAVE.runStatus] = 'crashed';
          this.endRun(run, run.lastEventMs, true);
        }
        break;
      case 'CodonStarted':
        if (codonId !== undefined) this.codonAttempt(codonId, runId, data, t);
        break;
      case 'CodonTransitioned': {
        if (!codon) break;
        const to = str(data.to);
        const metadata = obj(data.metadata);
        if (to === 'running') codon.boundaryMs = t;
        if (to !== undefined && TERMINAL.has(to)) {
          codon.terminal = true;
          const attrs = codon.span.attributes;
          attrs[HANKWEAVE.codonStatus] = to;
          const reason = obj(metadata.failureReason);
          const during = str(metadata.failedDuring) ?? str(metadata.skippedDuring);
          if (during !== undefined) attrs[HANKWEAVE.failureDuring] = during;
          if (str(reason.type) !== undefined) {
            attrs[HANKWEAVE.failureType] = str(reason.type) as string;
            attrs[HANKWEAVE.failureRetriable] = reason.retriable === true;
            attrs[HANKWEAVE.failureInterrupted] = reason.interrupted === true;
            if (str(reason.message) !== undefined)
              attrs[HANKWEAVE.failureMessage] = clip(str(reason.message) as string);
          }
          if (to === 'failed') {
            codon.span.status = {
              code: 'error',
              message: str(reason.message) ?? str(reason.type) ?? 'codon failed',
            };
          }
        }
        break;
      }
      case 'CodonFinalCostSet':
        if (codon) {
          codon.cost = num(data.finalCost) ?? codon.cost;
          codon.usage = usageOf(obj(data.finalTokens));
          codon.finalSet = true;
        }
        break;
      case 'CheckpointCreated': {
        const parent = codon?.span ?? run?.span ?? this.currentRun()?.span;
        const type = str(data.checkpointType) ?? 'unknown';
        const span = this.open(`checkpoint ${type}`, parent, Math.min(previousMs, t), {
          [HANKWEAVE.checkpointType]: type,
          [HANKWEAVE.checkpointSha]: str(data.sha) ?? '',
          [HANKWEAVE.checkpointBranch]: str(data.branch) ?? '',
          ...(codonId !== undefined ? { [HANKWEAVE.codonId]: codonId } : {}),
          [HANKWEAVE.inferredStart]: true,
        });
        this.end(span, t);
        break;
      }
      default:
        break;
    }
    // Every codon transition moves the last-event mark (checkpoints start from it).
    if (codon) codon.lastEventMs = t;
  }

  private codonAttempt(
    codonId: string,
    runId: string | undefined,
    data: Record<string, unknown>,
    t: number,
  ): void {
    const previous = this.codons.get(codonId);
    if (previous) this.endCodon(previous, previous.lastEventMs, !previous.terminal);
    // A codon that reached its end without a codon.completed (a skip) ends when the next starts.
    for (const open of [...this.codons.values()]) {
      if (open.terminal) this.endCodon(open, open.lastEventMs, false);
    }
    const run = runId !== undefined ? this.runs.get(runId) : this.currentRun();
    const start = Date.parse(str(data.startTime) ?? '');
    const loop = obj(data.loopContext);
    const attributes: SpanAttributes = {
      [HANKWEAVE.codonId]: codonId,
      [HANKWEAVE.codonAttempt]: num(data.retryAttempt) ?? 1,
      ...(runId !== undefined ? { [HANKWEAVE.runId]: runId } : {}),
      ...(run?.branch !== undefined ? { [HANKWEAVE.runBranch]: run.branch } : {}),
    };
    if (str(loop.loopId) !== undefined) {
      attributes[HANKWEAVE.loopId] = str(loop.loopId) as string;
      attributes[HANKWEAVE.loopIteration] = num(loop.iteration) ?? 0;
      attributes[HANKWEAVE.loopCodonIndex] = num(loop.codonIndexInLoop) ?? 0;
    }
    const startMs = Number.isFinite(start) ? start : t;
    const span = this.open(`codon ${codonId}`, run?.span, startMs, attributes);
    this.codons.set(codonId, {
      codonId,
      runId,
      span,
      boundaryMs: undefined,
      lastEventMs: t,
      turn: undefined,
      turnCount: 0,
      modelId: undefined,
      sessionId: undefined,
      tools: new Map(),
      rigLines: [],
      rigLineCount: 0,
      firstRigOutputMs: undefined,
      filesChanged: 0,
      usage: emptyUsage(),
      cost: 0,
      finalSet: false,
      terminal: false,
    });
  }

  private codonStarted(data: Record<string, unknown>): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const attrs = codon.span.attributes;
    if (str(data.codonName) !== undefined)
      attrs[HANKWEAVE.codonName] = str(data.codonName) as string;
    const sessionId = str(data.sessionId);
    if (sessionId !== undefined && sessionId !== '') {
      codon.sessionId = sessionId;
      attrs[GEN_AI.conversationId] = sessionId;
    }
    const prompt = str(obj(data.promptMetadata).name);
    if (prompt !== undefined) attrs[HANKWEAVE.promptName] = prompt;
  }

  private tokenUsage(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const usage = usageOf(data);
    const cost = num(data.totalCost) ?? 0;
    const modelId = str(data.modelId);
    if (modelId !== undefined) codon.modelId = modelId;
    if (!codon.finalSet) {
      addUsage(codon.usage, usage);
      codon.cost += cost;
    }
    if (data.modelUsage !== undefined) {
      // The agent's final figure: an increment that reconciles the sum to it, not a request.
      const attrs = codon.span.attributes;
      attrs[HANKWEAVE.reconciliationCostUsd] =
        ((attrs[HANKWEAVE.reconciliationCostUsd] as number | undefined) ?? 0) + cost;
      return;
    }
    const model = modelId ?? codon.modelId ?? 'unknown';
    const start = Math.min(codon.boundaryMs ?? codon.lastEventMs, t);
    codon.turnCount++;
    const span = this.open(
      `chat ${model}`,
      codon.span,
      start,
      {
        [GEN_AI.operationName]: 'chat',
        [GEN_AI.providerName]: providerOf(model),
        [GEN_AI.requestModel]: model,
        [GEN_AI.responseModel]: model,
        ...usageAttributes(usage),
        [HANKWEAVE.costUsd]: cost,
        [HANKWEAVE.codonId]: codon.codonId,
        [HANKWEAVE.turnIndex]: codon.turnCount,
        ...(codon.sessionId !== undefined ? { [GEN_AI.conversationId]: codon.sessionId } : {}),
      },
      'client',
    );
    // The request ended when its answer arrived; its actions follow, so the span ends later.
    codon.turn = { span, endMs: t, actions: 0, toolUse: false, messages: [] };
    codon.boundaryMs = t;
  }

  private closeTurn(codon: CodonState): void {
    const turn = codon.turn;
    if (!turn) return;
    codon.turn = undefined;
    const attrs = turn.span.attributes;
    attrs[HANKWEAVE.turnActions] = turn.actions;
    if (turn.actions > 0) attrs[GEN_AI.finishReasons] = [turn.toolUse ? 'tool_use' : 'end_turn'];
    if (this.options.captureContent && turn.messages.length > 0) {
      attrs[GEN_AI.outputMessages] = asJson([{ role: 'assistant', parts: turn.messages }]);
    }
    this.end(turn.span, turn.endMs);
  }

  private assistantAction(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const action = str(data.action);
    const turn = codon.turn;
    if (turn) {
      turn.actions++;
      if (action === 'tool_use') turn.toolUse = true;
      if (this.options.captureContent) {
        if (action === 'tool_use') {
          turn.messages.push({
            type: 'tool_call',
            id: str(data.toolUseId) ?? '',
            name: str(data.toolName) ?? '',
            arguments: data.toolInput ?? null,
          });
        } else {
          turn.messages.push({
            type: action === 'thinking' ? 'reasoning' : 'text',
            content: clip(str(data.content) ?? ''),
          });
        }
      }
    }
    if (action !== 'tool_use') return;
    const toolUseId = str(data.toolUseId) ?? `tool-${this.sequence}`;
    const toolName = str(data.toolName) ?? 'unknown';
    const span = this.open(`execute_tool ${toolName}`, codon.span, t, {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: toolName,
      [GEN_AI.toolCallId]: toolUseId,
      [HANKWEAVE.codonId]: codon.codonId,
      ...(this.options.captureContent && data.toolInput !== undefined
        ? { [GEN_AI.toolCallArguments]: asJson(data.toolInput) }
        : {}),
    });
    codon.tools.set(toolUseId, span);
  }

  private toolResult(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const toolUseId = str(data.toolUseId) ?? '';
    const executionMs = num(data.executionTimeMs) ?? 0;
    let span = codon.tools.get(toolUseId);
    codon.tools.delete(toolUseId);
    if (!span) {
      const toolName = str(data.toolName) ?? 'unknown';
      span = this.open(`execute_tool ${toolName}`, codon.span, t - executionMs, {
        [GEN_AI.operationName]: 'execute_tool',
        [GEN_AI.toolName]: toolName,
        [GEN_AI.toolCallId]: toolUseId,
        [HANKWEAVE.codonId]: codon.codonId,
      });
    }
    const attrs = span.attributes;
    attrs[HANKWEAVE.toolExecutionMs] = executionMs;
    attrs[HANKWEAVE.toolResultLength] = num(data.originalLength) ?? 0;
    attrs[HANKWEAVE.toolResultTruncated] = data.truncated === true;
    if (this.options.captureContent) attrs[GEN_AI.toolCallResult] = clip(str(data.result) ?? '');
    if (data.isError === true) {
      attrs['error.type'] = 'tool_error';
      span.status = { code: 'error', message: 'the tool reported an error' };
    }
    this.end(span, t);
    codon.boundaryMs = t;
  }

  private rigOutput(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    codon.rigLineCount++;
    codon.firstRigOutputMs ??= t;
    if (this.options.captureContent) {
      codon.rigLines.push({
        name: 'rig.output',
        timeMs: t,
        attributes: {
          'hankweave.rig.stream': str(data.stream) ?? '',
          'hankweave.rig.line': clip(str(data.line) ?? ''),
          [HANKWEAVE.rigCommandIndex]: num(data.commandIndex) ?? 0,
        },
      });
    }
  }

  private rigSetup(type: string, data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const duration = num(data.durationMs);
    const start = Math.max(
      codon.span.startMs,
      duration !== undefined ? t - duration : (codon.firstRigOutputMs ?? codon.span.startMs),
    );
    const attributes: SpanAttributes = {
      [HANKWEAVE.codonId]: codon.codonId,
      [HANKWEAVE.rigOutputLines]: codon.rigLineCount,
    };
    if (type === 'rig.setup.completed') {
      attributes[HANKWEAVE.rigType] = str(data.rigType) ?? '';
      attributes[HANKWEAVE.rigCommandCount] = num(data.commandCount) ?? 0;
    } else {
      attributes[HANKWEAVE.rigFailureType] = str(data.failureType) ?? 'other';
      if (num(data.exitCode) !== undefined)
        attributes[HANKWEAVE.rigExitCode] = num(data.exitCode) as number;
      if (num(data.commandIndex) !== undefined)
        attributes[HANKWEAVE.rigCommandIndex] = num(data.commandIndex) as number;
      attributes[HANKWEAVE.rigIgnored] = data.ignored === true;
    }
    const span = this.open('rig setup', codon.span, start, attributes);
    span.events.push(...codon.rigLines);
    codon.rigLines = [];
    if (type === 'rig.setup.failed') {
      span.status = {
        code: 'error',
        message: this.options.captureContent
          ? (str(data.message) ?? 'rig setup failed')
          : `rig setup failed (${str(data.failureType) ?? 'other'})`,
      };
    }
    this.end(span, t);
  }

  private codonCompleted(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    if (!codon) return;
    const attrs = codon.span.attributes;
    const success = data.success === true;
    attrs[HANKWEAVE.codonSuccess] = success;
    attrs[HANKWEAVE.codonDurationMs] = num(data.duration) ?? 0;
    attrs[HANKWEAVE.codonExitStatus] = str(obj(data.exitStatus).type) ?? 'unknown';
    if (!codon.finalSet && num(data.cost) !== undefined) codon.cost = num(data.cost) as number;
    if (data.failureIgnored === true) attrs[HANKWEAVE.failureIgnored] = true;
    const reason = obj(data.failureReason);
    if (str(reason.type) !== undefined && attrs[HANKWEAVE.failureType] === undefined) {
      attrs[HANKWEAVE.failureType] = str(reason.type) as string;
    }
    const budget = obj(data.budgetExceeded);
    if (str(budget.currency) !== undefined)
      attrs['hankweave.budget.exceeded'] = str(budget.currency) as string;
    if (success && codon.span.status.code === 'unset') codon.span.status = { code: 'ok' };
    this.endCodon(codon, t, false);
  }

  private endCodon(codon: CodonState, atMs: number | undefined, incomplete: boolean): void {
    if (this.codons.get(codon.codonId) === codon) this.codons.delete(codon.codonId);
    this.closeTurn(codon);
    for (const span of codon.tools.values()) this.end(span, atMs, true);
    codon.tools.clear();
    const attrs = codon.span.attributes;
    Object.assign(attrs, usageAttributes(codon.usage));
    attrs[HANKWEAVE.costUsd] = codon.cost;
    attrs[HANKWEAVE.codonFilesChanged] = codon.filesChanged;
    if (codon.modelId !== undefined) {
      attrs[GEN_AI.requestModel] = codon.modelId;
      attrs[GEN_AI.providerName] = providerOf(codon.modelId);
    }
    attrs[HANKWEAVE.codonStatus] ??= incomplete ? 'incomplete' : 'completed';
    const run = codon.runId !== undefined ? this.runs.get(codon.runId) : undefined;
    if (run) {
      run.cost += codon.cost;
      addUsage(run.usage, codon.usage);
    }
    this.end(codon.span, atMs ?? codon.lastEventMs, incomplete);
  }

  private endRun(run: RunState, atMs: number, incomplete: boolean): void {
    for (const codon of [...this.codons.values()]) {
      if (codon.runId === run.runId) this.endCodon(codon, codon.lastEventMs, !codon.terminal);
    }
    this.runs.delete(run.runId);
    if (this.currentRunId === run.runId) this.currentRunId = undefined;
    const attrs = run.span.attributes;
    Object.assign(attrs, usageAttributes(run.usage));
    attrs[HANKWEAVE.costUsd] = run.cost;
    attrs[HANKWEAVE.sentinelCostUsd] = run.sentinelCost;
    attrs[HANKWEAVE.runStatus] ??= 'incomplete';
    this.end(run.span, atMs, incomplete);
  }

  private sentinelSpan(data: Record<string, unknown>, t: number): SpanRecord {
    const codonId = str(data.codonId) ?? '';
    const sentinelId = str(data.sentinelId) ?? '';
    const trigger = num(data.triggerNumber) ?? 0;
    const key = `${codonId}|${sentinelId}|${trigger}`;
    const existing = this.sentinelCalls.get(key);
    if (existing) return existing;
    const model = this.sentinelModels.get(sentinelId);
    const parent = this.codons.get(codonId)?.span ?? this.currentRun()?.span;
    const span = this.open(
      `sentinel ${sentinelId}`,
      parent,
      t,
      {
        [GEN_AI.operationName]: 'chat',
        [GEN_AI.agentName]: sentinelId,
        [HANKWEAVE.sentinelId]: sentinelId,
        [HANKWEAVE.sentinelTrigger]: trigger,
        [HANKWEAVE.codonId]: codonId,
        ...(model
          ? { [GEN_AI.requestModel]: model, [GEN_AI.providerName]: providerOf(model) }
          : {}),
      },
      'client',
    );
    this.sentinelCalls.set(key, span);
    return span;
  }

  private sentinelDone(type: string, data: Record<string, unknown>, t: number): void {
    // An error carries no trigger number: it ends the sentinel's oldest open call.
    let span: SpanRecord | undefined;
    if (type === 'sentinel.error') {
      const prefix = `${str(data.codonId)}|${str(data.sentinelId)}|`;
      const key = [...this.sentinelCalls.keys()].find((candidate) => candidate.startsWith(prefix));
      span = key !== undefined ? this.sentinelCalls.get(key) : undefined;
      if (key !== undefined) this.sentinelCalls.delete(key);
      span ??= this.sentinelSpan(data, t);
      this.sentinelCalls.delete(
        `${str(data.codonId)}|${str(data.sentinelId)}|${num(data.triggerNumber) ?? 0}`,
      );
      span.attributes[HANKWEAVE.sentinelErrorType] = str(data.errorType) ?? 'unknown';
      span.attributes['error.type'] = str(data.errorType) ?? 'unknown';
      span.status = {
        code: 'error',
        message: this.options.captureContent
          ? clip(str(data.message) ?? '')
          : (str(data.errorType) ?? ''),
      };
      this.end(span, t);
      return;
    }
    span = this.sentinelSpan(data, t);
    this.sentinelCalls.delete(
      `${str(data.codonId) ?? ''}|${str(data.sentinelId) ?? ''}|${num(data.triggerNumber) ?? 0}`,
    );
    const tokens = obj(data.tokens);
    const cost = num(data.cost) ?? 0;
    Object.assign(span.attributes, {
      [GEN_AI.inputTokens]: num(tokens.input) ?? 0,
      [GEN_AI.outputTokens]: num(tokens.output) ?? 0,
      [HANKWEAVE.costUsd]: cost,
      [HANKWEAVE.sentinelEventCount]: num(data.eventCount) ?? 0,
    });
    if (this.options.captureContent) {
      span.attributes[GEN_AI.outputMessages] = asJson([
        { role: 'assistant', parts: [{ type: 'text', content: asJson(data.content) }] },
      ]);
    }
    const codon = this.codons.get(str(data.codonId) ?? '');
    const run = codon?.runId !== undefined ? this.runs.get(codon.runId) : this.currentRun();
    if (run) run.sentinelCost += cost;
    span.status = { code: 'ok' };
    this.end(span, t);
  }

  private rollbackStarted(data: Record<string, unknown>, t: number): void {
    if (this.rollback) this.end(this.rollback, t, true);
    const codons = Array.isArray(data.codonsToProcess)
      ? data.codonsToProcess.filter((item): item is string => typeof item === 'string')
      : [];
    this.rollback = this.open('rollback', this.currentRun()?.span, t, {
      [HANKWEAVE.rollbackFromRun]: str(data.fromRun) ?? '',
      ...(str(data.fromCodon)
        ? { [HANKWEAVE.rollbackFromCodon]: str(data.fromCodon) as string }
        : {}),
      ...(str(data.toCodon) ? { [HANKWEAVE.rollbackToCodon]: str(data.toCodon) as string } : {}),
      [HANKWEAVE.rollbackCheckpoint]: str(data.toCheckpoint) ?? '',
      [HANKWEAVE.rollbackCheckpointType]: str(data.checkpointType) ?? '',
      [HANKWEAVE.rollbackCodons]: codons,
    });
  }

  private rollbackCompleted(data: Record<string, unknown>, t: number): void {
    const span =
      this.rollback ??
      this.open('rollback', this.currentRun()?.span, t, {
        [HANKWEAVE.rollbackFromRun]: str(data.fromRun) ?? '',
      });
    this.rollback = undefined;
    span.attributes[HANKWEAVE.rollbackToRun] = str(data.toRun) ?? '';
    span.attributes[HANKWEAVE.rollbackCheckpoint] = str(data.checkpoint) ?? '';
    span.attributes[HANKWEAVE.rollbackDebrisCount] = num(obj(data.debris).count) ?? 0;
    span.status = { code: 'ok' };
    this.end(span, t);
  }

  private error(data: Record<string, unknown>, t: number): void {
    const codon = this.codonOf(data);
    const target = codon?.span ?? this.rollback ?? this.currentRun()?.span;
    if (!target) return;
    const severity = str(data.severity) ?? 'operation';
    target.events.push({
      name: 'hankweave.error',
      timeMs: t,
      attributes: {
        'hankweave.error.severity': severity,
        ...(str(data.code) !== undefined
          ? { 'hankweave.error.code': str(data.code) as string }
          : {}),
        ...(this.options.captureContent
          ? { 'hankweave.error.message': clip(str(data.message) ?? '') }
          : {}),
      },
    });
    if (data.fatal === true) {
      const run = this.currentRun();
      if (run) run.span.status = { code: 'error', message: str(data.code) ?? 'fatal error' };
    }
  }
}

/**
 * The span tree of a whole event stream (a journal read from its start): every span, in the
 * order they end, the open ones ended at their last event and marked incomplete.
 */
export function mapEventsToSpans(
  events: Iterable<AnyEvent>,
  options: Omit<SpanMapperOptions, 'onEnd'> = {},
): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const mapper = new SpanMapper({ ...options, onEnd: (span) => spans.push(span) });
  for (const event of events) mapper.push(event);
  mapper.finish();
  return spans;
}

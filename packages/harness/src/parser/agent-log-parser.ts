import {
  type AgentAssistantLine,
  type AgentResultLine,
  type AgentSystemLine,
  type AgentUserLine,
  agentAssistantLineSchema,
  agentResultLineSchema,
  agentSystemLineSchema,
  agentUserLineSchema,
  defaultModelCatalog,
  type ModelCatalog,
} from '@hankweave/types';
import type { AgentEvent } from '../agent-event.js';
import { isContextExceededText } from '../classify/context-exceeded.js';
import { SYNTHETIC_TIMEOUT_TEXT } from '../classify/derive-failure-reason.js';
import type { AgentLogParserOptions, AgentLogState } from './agent-log-state.js';
import { computeFinalCost, type FinalCost, finalCostWarning } from './final-cost.js';
import { blockAction, initDetails, resultEvent, toolResultData } from './line-events.js';
import {
  apiRetryEvent,
  contentBlocks,
  type PendingToolUse,
  resultText,
  textOf,
} from './line-helpers.js';
import { type SafeParser, tolerantParse } from './tolerant-parse.js';
import { isZeroUsage, toTokenUsage, UsageLedger } from './usage-ledger.js';

/**
 * Turns agent log lines (Claude Code stream-json, plus the harness's `stderr` lines) into
 * {@link AgentEvent}s, one line at a time (reference §4.5). Stateful: create one per session.
 * Never throws on input: unknown types, unknown fields and broken lines are skipped or kept.
 */
export class AgentLogParser {
  private readonly options: AgentLogParserOptions;
  private readonly models: ModelCatalog;
  private readonly ledger: UsageLedger;
  private readonly pending = new Map<string, PendingToolUse>();
  private readonly messageIds = new Set<string>();
  private readonly st: AgentLogState;
  private sessionAnnounced = false;
  private successLine: AgentResultLine | undefined;
  private lastResultLine: AgentResultLine | undefined;
  private lastTimestamp: string | undefined;
  private finished = false;

  constructor(options: AgentLogParserOptions) {
    this.options = options;
    this.models = options.models ?? defaultModelCatalog;
    this.ledger = new UsageLedger(this.models);
    this.st = {
      lineCount: 0,
      unparsedLineCount: 0,
      resultReceived: false,
      successResult: false,
      syntheticTimeout: false,
      killNoted: false,
      contextExceeded: false,
      assistantMessageCount: 0,
      tokens: { ...this.ledger.totals },
      cost: 0,
      pendingToolUseCount: 0,
    };
    if (options.model !== undefined) this.st.model = options.model;
  }

  /** A snapshot of what is known so far. */
  get state(): Readonly<AgentLogState> {
    return {
      ...this.st,
      tokens: { ...this.ledger.totals },
      cost: this.ledger.cost,
      pendingToolUseCount: this.pending.size,
    };
  }

  /** Parses one log line and returns the events it causes (often none). */
  push(line: string): AgentEvent[] {
    if (line.trim() === '') return [];
    this.st.lineCount += 1;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.st.unparsedLineCount += 1;
      return [];
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.st.unparsedLineCount += 1;
      return [];
    }
    const record = raw as Record<string, unknown>;
    const timestamp =
      typeof record.timestamp === 'string'
        ? record.timestamp
        : (this.options.now?.() ?? new Date()).toISOString();
    this.lastTimestamp = timestamp;
    const events: AgentEvent[] = [];
    const type = record.type;
    if (type === 'system')
      this.onSystem(this.parse(agentSystemLineSchema, record), timestamp, events);
    else if (type === 'assistant')
      this.onAssistant(this.parse(agentAssistantLineSchema, record), timestamp, events);
    else if (type === 'user')
      this.onUser(this.parse(agentUserLineSchema, record), timestamp, events);
    else if (type === 'result')
      this.onResult(this.parse(agentResultLineSchema, record), timestamp, events);
    else if (type === 'harness' && record.subtype === 'killed') this.st.killNoted = true;
    else if (type === 'stderr') {
      const message = record.message ?? record.text ?? '';
      events.push({ type: 'stderr', timestamp, line: String(message) });
    }
    return events;
  }

  /**
   * Ends the session: the final `token.usage` (reference §4.8) and a cost-mismatch warning.
   * Idempotent; later calls return no events.
   */
  finish(): AgentEvent[] {
    if (this.finished) return [];
    this.finished = true;
    const timestamp = this.lastTimestamp ?? (this.options.now?.() ?? new Date()).toISOString();
    const final = this.finalCost();
    const events: AgentEvent[] = [];
    const warning = finalCostWarning(final, this.ledger.cost, this.ledger.unpricedModels);
    if (warning !== undefined) events.push({ type: 'warning', timestamp, message: warning });
    const data: Extract<AgentEvent, { type: 'token.usage' }>['data'] = {
      codonId: this.options.codonId,
      ...final.finalTokens,
      totalCost: final.finalCost,
    };
    if (this.st.model !== undefined) data.modelId = this.st.model;
    if (final.modelUsage) data.modelUsage = final.modelUsage;
    events.push({ type: 'token.usage', timestamp, final: true, data });
    return events;
  }

  /** Final cost and tokens from what has been parsed so far (reference §4.8). */
  finalCost(): FinalCost {
    return computeFinalCost({
      result: this.successLine ?? this.lastResultLine,
      model: this.st.model ?? '',
      deltas: {
        cost: this.ledger.cost,
        tokens: { ...this.ledger.totals },
        byModel: structuredClone(this.ledger.byModel),
      },
      models: this.models,
      resumed: this.options.resumed === true,
    });
  }

  private parse<T>(schema: SafeParser<T>, record: Record<string, unknown>): T | undefined {
    return tolerantParse(schema, record)?.data;
  }

  private announceSession(
    sessionId: string | undefined,
    timestamp: string,
    events: AgentEvent[],
    extra: { model?: string; claudeCodeVersion?: string; cwd?: string } = {},
  ): void {
    if (sessionId === undefined || sessionId === '') return;
    this.st.sessionId = sessionId;
    if (this.sessionAnnounced) return;
    this.sessionAnnounced = true;
    events.push({ type: 'session.started', timestamp, sessionId, ...extra });
  }

  private onSystem(
    line: AgentSystemLine | undefined,
    timestamp: string,
    events: AgentEvent[],
  ): void {
    if (!line) return;
    if (line.subtype === 'init') {
      const details = initDetails(line);
      if (details.model !== undefined) this.st.model = details.model;
      if (details.claudeCodeVersion !== undefined) {
        this.st.claudeCodeVersion = details.claudeCodeVersion;
      }
      this.announceSession(line.session_id, timestamp, events, details);
    } else if (line.subtype === 'hook_response') {
      // Some versions start with hook responses; they already carry the session id.
      this.announceSession(line.session_id, timestamp, events);
    } else if (line.subtype === 'compact_boundary') {
      if (this.options.autoCompact === true)
        this.markContextExceeded('compact_boundary', timestamp, events);
    } else if (line.subtype === 'api_retry') {
      events.push(apiRetryEvent(line, timestamp));
    }
  }

  private markContextExceeded(reason: string, timestamp: string, events: AgentEvent[]): void {
    if (this.st.contextExceeded) return;
    this.st.contextExceeded = true;
    events.push({ type: 'context.exceeded', timestamp, reason });
  }

  private onAssistant(
    line: AgentAssistantLine | undefined,
    timestamp: string,
    events: AgentEvent[],
  ): void {
    if (!line) return;
    this.announceSession(line.session_id, timestamp, events);
    const message = line.message;
    const blocks = contentBlocks(message?.content);
    const model = message?.model ?? this.st.model ?? '';
    const codonId = this.options.codonId;
    if (model === '<synthetic>') {
      // The agent's own error notices: no usage, not a model turn.
      const text = blocks.map(textOf).join('\n').trim();
      if (text === SYNTHETIC_TIMEOUT_TEXT) {
        this.st.syntheticTimeout = true;
        events.push({ type: 'api.timeout', timestamp, message: text });
        return;
      }
      if (isContextExceededText(text, { synthetic: true })) {
        this.markContextExceeded(text, timestamp, events);
      }
    } else {
      this.countUsage(line, model, timestamp, events);
    }
    for (const block of blocks) {
      const data = blockAction(block, codonId, line.parent_tool_use_id);
      if (!data) continue;
      if (data.action === 'tool_use' && data.toolUseId !== undefined) {
        this.pending.set(data.toolUseId, { name: data.toolName ?? 'unknown', timestamp });
      }
      events.push({ type: 'assistant.action', timestamp, data });
    }
  }

  private countUsage(
    line: AgentAssistantLine,
    model: string,
    timestamp: string,
    events: AgentEvent[],
  ): void {
    const message = line.message;
    const messageId = message?.id ?? line.uuid;
    if (!line.parent_tool_use_id && messageId !== undefined && !this.messageIds.has(messageId)) {
      this.messageIds.add(messageId);
      this.st.assistantMessageCount += 1;
      events.push({
        type: 'assistant.message.counted',
        timestamp,
        count: this.st.assistantMessageCount,
      });
    }
    const usage = toTokenUsage(message?.usage ?? line.usage);
    const delta = this.ledger.add(messageId, model, usage);
    if (delta.unpricedModel !== undefined) {
      events.push({
        type: 'warning',
        timestamp,
        message: `No price for model "${delta.unpricedModel}" in the model catalog: the running cost counts its tokens at $0 until the agent reports its own final cost`,
      });
    }
    if (isZeroUsage(delta.tokens)) return;
    events.push({
      type: 'token.usage',
      timestamp,
      final: false,
      data: {
        codonId: this.options.codonId,
        ...delta.tokens,
        totalCost: delta.cost,
        modelId: model,
      },
    });
  }

  private onUser(line: AgentUserLine | undefined, timestamp: string, events: AgentEvent[]): void {
    if (!line) return;
    this.announceSession(line.session_id, timestamp, events);
    for (const block of contentBlocks(line.message?.content)) {
      if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const pending = this.pending.get(block.tool_use_id);
      this.pending.delete(block.tool_use_id);
      const data = toolResultData({
        block: block as Record<string, unknown> & { tool_use_id: string },
        pending,
        timestamp,
        codonId: this.options.codonId,
      });
      events.push({ type: 'tool.result', timestamp, data });
    }
  }

  private onResult(
    line: AgentResultLine | undefined,
    timestamp: string,
    events: AgentEvent[],
  ): void {
    if (!line) return;
    this.announceSession(line.session_id, timestamp, events);
    this.st.resultReceived = true;
    this.lastResultLine = line;
    const subtype = line.subtype ?? 'unknown';
    const isError = subtype !== 'success' || line.is_error === true;
    const text = resultText(line);
    if (!isError) {
      this.st.successResult = true;
      if (!this.successLine && typeof line.result === 'string') {
        this.st.successResultText = line.result;
      }
      this.successLine ??= line;
    } else {
      // After a success, a second error result is the post-success SDK error: ignored (§4.5).
      if (!this.st.successResult && this.st.errorResultText === undefined) {
        this.st.errorResultText = text !== undefined && text !== '' ? text : subtype;
      }
      if (text !== undefined && isContextExceededText(text, { synthetic: false })) {
        this.markContextExceeded(text, timestamp, events);
      }
    }
    events.push(resultEvent(line, { timestamp, subtype, isError, text }));
  }
}

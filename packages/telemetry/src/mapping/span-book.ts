import type { TokenUsage } from '@hankweave/types';
import { HANKWEAVE } from '../attributes.js';
import type {
  SpanAttributes,
  SpanEventRecord,
  SpanMapperOptions,
  SpanRecord,
} from '../span-record.js';
import { str } from './values.js';

/** A model request whose span is open: it ends when the next non-action event comes. */
export interface TurnState {
  span: SpanRecord;
  /** When the answer arrived (the token.usage event): the span's end. */
  endMs: number;
  actions: number;
  toolUse: boolean;
  messages: Array<Record<string, unknown>>;
}

/** One codon attempt whose span is open, and what its span's attributes are summed from. */
export interface CodonState {
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

/** A run whose span is open, and the totals its span gets when it ends. */
export interface RunState {
  span: SpanRecord;
  runId: string;
  branch: string | undefined;
  lastEventMs: number;
  cost: number;
  sentinelCost: number;
  usage: TokenUsage;
}

/**
 * What one mapping knows between events: the open runs, codons, sentinel calls and rollback,
 * and the clock the events' timestamps drive. The event families (`*-spans.ts`) read and change
 * it; spans start and end only through {@link SpanBook.open} and {@link SpanBook.end}, so every
 * span reaches `onStart` and `onEnd` once.
 */
export class SpanBook {
  readonly options: SpanMapperOptions;
  readonly runs = new Map<string, RunState>();
  /** The open attempt of each codon id. */
  readonly codons = new Map<string, CodonState>();
  /** Open sentinel calls by `<codonId>|<sentinelId>|<triggerNumber>`. */
  readonly sentinelCalls = new Map<string, SpanRecord>();
  /** Each loaded sentinel's model id. */
  readonly sentinelModels = new Map<string, string>();
  rollback: SpanRecord | undefined;
  currentRunId: string | undefined;
  private sequence = 0;
  private lastMs = 0;

  constructor(options: SpanMapperOptions) {
    this.options = options;
  }

  /** How many spans have been opened: ids and fallback names are numbered by it. */
  get spansOpened(): number {
    return this.sequence;
  }

  /**
   * An event's time in epoch milliseconds. An unreadable timestamp takes the latest time seen,
   * which is also where {@link SpanBook.end} ends a span given no time.
   */
  advanceClock(timestamp: string): number {
    const parsed = Date.parse(timestamp);
    const t = Number.isFinite(parsed) ? parsed : this.lastMs;
    this.lastMs = Math.max(this.lastMs, t);
    return t;
  }

  currentRun(): RunState | undefined {
    return this.currentRunId !== undefined ? this.runs.get(this.currentRunId) : undefined;
  }

  /** The open codon an event's data names (`codonId`, or `codon` in older events). */
  codonOf(data: Record<string, unknown>): CodonState | undefined {
    const codonId = str(data.codonId) ?? str(data.codon);
    return codonId !== undefined ? this.codons.get(codonId) : undefined;
  }

  open(
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

  /** Ends a span once (later calls do nothing), never before it started. */
  end(span: SpanRecord, atMs: number | undefined, incomplete = false): void {
    if (span.endMs !== undefined) return;
    span.endMs = Math.max(span.startMs, atMs ?? this.lastMs);
    if (incomplete) span.attributes[HANKWEAVE.incomplete] = true;
    this.options.onEnd?.(span);
  }
}

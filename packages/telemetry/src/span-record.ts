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

/** Options of `SpanMapper` and `mapEventsToSpans` (both in `span-mapper.ts`). */
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

import type { ModelCatalog } from '@hankweave/types';
import {
  type ClaudeRecord,
  type ClaudeUsage,
  finishPiTranslation,
  initialPiTranslation,
  type PiTranslation,
  type PiTranslationState,
  type PriceUsage,
  translatePiLine,
} from './translate-pi-line.js';

/** Where the translated lines go. */
export interface PiLogTranslatorOptions {
  /** The model id the runtime asked for (named in every record, priced by `catalog`). */
  model: string;
  cwd?: string;
  catalog: ModelCatalog;
  /** A Claude-style JSON line for the agent log. */
  write(line: string): void;
  /** A stdout line that is not JSON (kept in the log as agent output, not parsed). */
  unreadable(line: string): void;
  /** A tool started or ended (the idle watchdog's busy floor). */
  toolStarted?(id: string): void;
  toolEnded?(id: string): void;
}

/**
 * Holds the translation state of one Pi process and feeds its stdout lines, one by one, through
 * the pure {@link translatePiLine}; {@link finish} writes the result once Pi has exited.
 */
export class PiLogTranslator {
  private state: PiTranslationState;
  private readonly price: PriceUsage;

  constructor(private readonly options: PiLogTranslatorOptions) {
    this.state = initialPiTranslation({
      model: options.model,
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
    this.price = catalogPrice(options.catalog);
  }

  /** One stdout line of Pi. */
  push(line: string): void {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.options.unreadable(line);
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      this.options.unreadable(line);
      return;
    }
    const piLine = parsed as Record<string, unknown>;
    const toolCallId = typeof piLine.toolCallId === 'string' ? piLine.toolCallId : undefined;
    if (toolCallId !== undefined && piLine.type === 'tool_execution_start') {
      this.options.toolStarted?.(toolCallId);
    }
    if (toolCallId !== undefined && piLine.type === 'tool_execution_end') {
      this.options.toolEnded?.(toolCallId);
    }
    this.apply(translatePiLine(this.state, piLine));
  }

  /** Pi has exited: the result record, when Pi finished a run. Idempotent. */
  finish(): void {
    this.apply(finishPiTranslation(this.state, this.price));
  }

  private apply(translation: PiTranslation): void {
    this.state = translation.state;
    for (const record of translation.records) this.write(record);
  }

  private write(record: ClaudeRecord): void {
    this.options.write(JSON.stringify(record));
  }
}

/** The catalog's price of a result's usage; undefined for a model it has no price for. */
export function catalogPrice(catalog: ModelCatalog): PriceUsage {
  return (model: string, usage: ClaudeUsage) => {
    const priced = catalog.priceUsage(model, {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_input_tokens,
      cacheCreationTokens: usage.cache_creation_input_tokens,
    });
    return priced.known ? priced.cost : undefined;
  };
}

import { errnoCode, type Fs, nodeFs } from '@hankweave/durable-io';
import { type WebSocketLogEntry, websocketLogEntrySchema } from '@hankweave/types';
import { readChunks } from '../backends/file/file-chunks.js';
import { JournalError } from '../errors.js';
import { splitLines } from '../internal/line-splitter.js';

/** What `getStatistics()` reports about a WebSocket log. */
export interface WebSocketLogStatistics {
  /** Entries read (corrupt lines excluded). */
  totalEntries: number;
  /** Entries per `message.type`; messages without a string `type` count as `"(none)"`. */
  messageTypes: Record<string, number>;
  /** Entries per direction: `in` (client → server) and `out` (server → client). */
  byDirection: { in: number; out: number };
  /** Sum of `metadata.size` (bytes of the serialised messages). */
  totalBytes: number;
  bytesByDirection: { in: number; out: number };
  /** Lines that are not a log entry; skipped. */
  corruptLines: number;
}

const typeOf = (message: unknown): string => {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : '(none)';
};

/**
 * Adds one to `counts[key]` as an own property: a type named `__proto__` or `constructor` is
 * counted like any other instead of reading (or replacing) what the prototype holds.
 */
const countOwn = (counts: Record<string, number>, key: string): void => {
  const previous = Object.hasOwn(counts, key) ? (counts[key] as number) : 0;
  Object.defineProperty(counts, key, {
    value: previous + 1,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};

const dataOf = (message: unknown): Record<string, unknown> | undefined => {
  const data = (message as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined;
};

/**
 * Reads `.hankweave/logs/websocket.log` (seed 001: "Use the WebSocketLogReader utility class to
 * analyze it programmatically"). Tolerant: lines that are not entries are skipped and counted.
 */
export class WebSocketLogReader {
  readonly path: string;
  readonly #fs: Fs;
  #entries: WebSocketLogEntry[] = [];
  #corruptLines = 0;

  constructor(path: string, options: { fs?: Fs } = {}) {
    this.path = path;
    this.#fs = options.fs ?? nodeFs;
  }

  /** The entries of the last `readLog()`. */
  get entries(): readonly WebSocketLogEntry[] {
    return this.#entries;
  }

  /**
   * Reads every entry of the log, in order, replacing what an earlier call read. The statistics
   * and filters below work on what this returned.
   * @throws {JournalError} JOURNAL_READ_FAILED when the file cannot be read.
   */
  async readLog(): Promise<WebSocketLogEntry[]> {
    const entries: WebSocketLogEntry[] = [];
    let corrupt = 0;
    try {
      const handle = await this.#fs.open(this.path, 'r');
      try {
        const { size } = await handle.stat();
        for await (const line of splitLines(readChunks(handle, 0, size), {
          lineNumber: 0,
          offset: 0,
        })) {
          const entry = parseEntry(line.text);
          if (entry) entries.push(entry);
          else corrupt += 1;
        }
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw new JournalError('JOURNAL_READ_FAILED', `Cannot read WebSocket log ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    }
    this.#entries = entries;
    this.#corruptLines = corrupt;
    return entries;
  }

  /** Totals over the entries read by `readLog()` (all zero before it). */
  getStatistics(): WebSocketLogStatistics {
    const statistics: WebSocketLogStatistics = {
      totalEntries: this.#entries.length,
      messageTypes: {},
      byDirection: { in: 0, out: 0 },
      totalBytes: 0,
      bytesByDirection: { in: 0, out: 0 },
      corruptLines: this.#corruptLines,
    };
    for (const entry of this.#entries) {
      countOwn(statistics.messageTypes, typeOf(entry.message));
      statistics.byDirection[entry.direction] += 1;
      statistics.totalBytes += entry.metadata.size;
      statistics.bytesByDirection[entry.direction] += entry.metadata.size;
    }
    return statistics;
  }

  /**
   * The entries whose message concerns one codon: `message.data.codonId` or (error events)
   * `message.data.codon` equals `codonId`. Loop iterations are distinct codons (`review#1`).
   */
  getCodonMessages(codonId: string): WebSocketLogEntry[] {
    return this.#entries.filter((entry) => {
      const data = dataOf(entry.message);
      return data?.codonId === codonId || data?.codon === codonId;
    });
  }
}

function parseEntry(text: string): WebSocketLogEntry | undefined {
  try {
    const parsed = websocketLogEntrySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

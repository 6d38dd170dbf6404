import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { HankweaveEvent } from '@hankweave/types';
import { JournalError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../internal/cursor.js';
import type {
  EventPage,
  JournalBackend,
  JournalCapabilities,
  JournalStats,
  RecentEvents,
} from '../../journal-backend.js';

/** Options of {@link MemoryEventStorage}. */
export interface MemoryEventStorageOptions {
  /** Most events kept; older ones are trimmed. Default 100 (seed 003). `Infinity`: keep all. */
  maxEvents?: number;
}

/**
 * The in-memory backend (seed 003 `MemoryEventStorage`) for tests and development. It keeps at
 * most `maxEvents` events; when one more arrives it drops the oldest max(10% of `maxEvents`,
 * excess), so trimming happens in steps rather than on every append. Counts and reads cover only
 * what is kept; `stats().trimmedEvents` says how many were dropped. Events are stored serialised,
 * exactly as the file backend would write them, so callers can never mutate stored events.
 */
export class MemoryEventStorage implements JournalBackend {
  readonly capabilities: JournalCapabilities;
  readonly #maxEvents: number;
  readonly #epoch = randomBytes(6).toString('hex');
  #lines: string[] = [];
  /** Sequence number of `#lines[0]` among every event ever appended. */
  #firstSequence = 0;
  #closed = false;

  constructor(options: MemoryEventStorageOptions = {}) {
    const maxEvents = options.maxEvents ?? 100;
    if (!(maxEvents >= 1) || (Number.isFinite(maxEvents) && !Number.isInteger(maxEvents))) {
      throw new JournalError('JOURNAL_BAD_ARGUMENT', 'maxEvents must be a positive integer', {
        details: { maxEvents },
      });
    }
    this.#maxEvents = maxEvents;
    this.capabilities = {
      persistent: false,
      maxEvents: Number.isFinite(maxEvents) ? maxEvents : undefined,
      readOnly: false,
    };
  }

  async initialize(): Promise<void> {}

  append(events: readonly HankweaveEvent[]): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closedError());
    for (const event of events) this.#lines.push(JSON.stringify(event));
    const excess = this.#lines.length - this.#maxEvents;
    if (excess > 0) {
      const drop = Math.max(Math.ceil(this.#maxEvents * 0.1), excess);
      this.#lines.splice(0, drop);
      this.#firstSequence += drop;
    }
    return Promise.resolve();
  }

  async readRecent(limit: number): Promise<RecentEvents> {
    this.#assertOpen();
    const events = this.#lines.slice(Math.max(0, this.#lines.length - limit)).map(parse);
    return {
      events,
      totalEvents: this.#lines.length,
      hasMore: this.#lines.length > events.length,
    };
  }

  async *readAll(): AsyncGenerator<HankweaveEvent, void, undefined> {
    this.#assertOpen();
    const snapshot = this.#lines.slice();
    for (const line of snapshot) yield parse(line);
  }

  async readAfter(cursor: string | null | undefined, limit: number): Promise<EventPage> {
    this.#assertOpen();
    const position = cursor ? decodeCursor(cursor) : { line: 0, offset: 0, epoch: this.#epoch };
    const end = this.#firstSequence + this.#lines.length;
    const bad = (reason: string) =>
      new JournalError('JOURNAL_BAD_CURSOR', `Journal cursor rejected: ${reason}`, {
        details: { cursor, reason },
      });
    if (position.line !== position.offset) throw bad('offset does not match the line');
    if (position.line > 0 && position.epoch !== this.#epoch) {
      throw bad('the cursor belongs to another journal');
    }
    if (position.line > end) throw bad('the cursor is past the end');
    // A cursor into the trimmed part resumes at the oldest event still kept.
    const from = Math.max(position.line, this.#firstSequence) - this.#firstSequence;
    const lines = this.#lines.slice(from, from + limit);
    const next = this.#firstSequence + from + lines.length;
    return {
      events: lines.map(parse),
      nextCursor: encodeCursor({ line: next, offset: next, epoch: this.#epoch }),
      hasMore: next < end,
    };
  }

  async count(): Promise<number> {
    this.#assertOpen();
    return this.#lines.length;
  }

  async createRawStream(): Promise<Readable> {
    this.#assertOpen();
    return Readable.from(this.#lines.map((line) => Buffer.from(`${line}\n`)));
  }

  async stats(): Promise<JournalStats> {
    this.#assertOpen();
    return {
      totalEvents: this.#lines.length,
      lines: this.#lines.length,
      corruptLines: 0,
      tornLinesRepaired: 0,
      partialTailBytes: 0,
      byteLength: this.#lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0),
      trimmedEvents: this.#firstSequence,
      indexRebuilds: 0,
      recreations: 0,
    };
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw this.#closedError();
  }

  #closedError(): JournalError {
    return new JournalError('JOURNAL_CLOSED', 'Journal is closed');
  }
}

const parse = (line: string): HankweaveEvent => JSON.parse(line) as HankweaveEvent;

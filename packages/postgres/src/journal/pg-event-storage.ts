import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type {
  EventPage,
  JournalBackend,
  JournalCapabilities,
  JournalStats,
  RecentEvents,
} from '@hankweave/journal';
import { JournalError } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import type { Pool } from 'pg';
import { ensureSchema } from '../internal/schema.js';
import { inTransaction } from '../internal/transaction.js';
import { AppendQueue } from './append-queue.js';
import { decodeJournalCursor, encodeJournalCursor } from './journal-cursor.js';
import {
  closedError,
  type EventRow,
  insertLines,
  journalFailure,
  linesOf,
  parseLine,
} from './journal-io.js';
import {
  JOURNAL_DDL,
  OPEN_JOURNAL,
  READ_AFTER,
  READ_PAGE,
  READ_RECENT,
  SELECT_JOURNAL,
} from './journal-sql.js';

/** Options of {@link PgEventStorage}. */
export interface PgEventStorageOptions {
  /** A `pg` pool; the storage borrows clients and never ends it. */
  pool: Pool;
  /** The execution whose journal this is; many executions share the tables. */
  executionId: string;
  /** Rows fetched per query by `readAll()` and `createRawStream()`. Default 1000. */
  pageSize?: number;
  /**
   * Events per INSERT statement. Queued appends are committed together up to this many events;
   * a larger `appendMany` is one transaction of several statements. Default 10 000.
   */
  chunkEvents?: number;
}

/**
 * The journal of one execution in Postgres (`new EventJournal(new PgEventStorage({pool,
 * executionId}))`): gapless per-execution sequence numbers, O(1) counts and O(limit) tails on the
 * primary key, signed cursors, paged streaming, and acknowledge-after-commit. Any number of
 * instances, in any number of processes, may append to one execution: they are serialised by the
 * execution's counter row (the runtime still has one writer per execution).
 */
export class PgEventStorage implements JournalBackend {
  readonly capabilities: JournalCapabilities = {
    persistent: true,
    maxEvents: undefined,
    readOnly: false,
  };
  /** The execution this journal belongs to. */
  readonly executionId: string;
  readonly #pool: Pool;
  readonly #pageSize: number;
  readonly #chunkEvents: number;
  readonly #queue: AppendQueue;
  #opened: Promise<string> | undefined;
  #cursorKey = '';
  #closed = false;

  constructor(options: PgEventStorageOptions) {
    const { executionId } = options;
    if (typeof executionId !== 'string' || executionId.length === 0) {
      throw new JournalError('JOURNAL_BAD_ARGUMENT', 'executionId must be a non-empty string', {
        details: { executionId: String(executionId) },
      });
    }
    for (const [name, value] of [
      ['pageSize', options.pageSize],
      ['chunkEvents', options.chunkEvents],
    ] as const) {
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
        throw new JournalError('JOURNAL_BAD_ARGUMENT', `${name} must be an integer ≥ 1`, {
          details: { [name]: value },
        });
      }
    }
    this.executionId = executionId;
    this.#pool = options.pool;
    this.#pageSize = options.pageSize ?? 1000;
    this.#chunkEvents = options.chunkEvents ?? 10_000;
    this.#queue = new AppendQueue((lines) => this.#write(lines), this.#chunkEvents);
  }

  /**
   * Creates the tables if needed (idempotent, versioned in `hankweave_schema`) and the
   * execution's counter row. Safe to call again.
   * @throws {JournalError} JOURNAL_OPEN_FAILED when the database cannot be reached or holds a
   *   newer schema (the cause says which).
   */
  initialize(): Promise<void> {
    this.#opened ??= this.#open();
    return this.#opened.then(() => undefined);
  }

  append(events: readonly HankweaveEvent[]): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (events.length === 0) return Promise.resolve();
    // Serialised now, before any await: the queue's order is the call order.
    return this.#queue.enqueue(events.map((event) => JSON.stringify(event)));
  }

  async readRecent(limit: number): Promise<RecentEvents> {
    const rows = await this.#query<EventRow>('hw_journal_recent', READ_RECENT, [
      this.executionId,
      limit,
    ]);
    const total = Number(rows[0]?.total ?? 0);
    const events = linesOf(rows).map(parseLine);
    return { events, totalEvents: total, hasMore: total > events.length };
  }

  async *readAll(): AsyncGenerator<HankweaveEvent, void, undefined> {
    // The bound is taken when iteration begins: later appends are not yielded.
    const { total } = await this.#counter();
    for await (const lines of this.#pages(total)) {
      for (const line of lines) yield parseLine(line);
    }
  }

  async readAfter(cursor: string | null | undefined, limit: number): Promise<EventPage> {
    const key = await this.#key();
    const after = cursor ? decodeJournalCursor(key, this.executionId, cursor) : 0;
    const rows = await this.#query<EventRow>('hw_journal_after', READ_AFTER, [
      this.executionId,
      after,
      limit,
    ]);
    const total = Number(rows[0]?.total ?? 0);
    if (after > total) {
      throw new JournalError('JOURNAL_BAD_CURSOR', 'Journal cursor rejected: past the end', {
        details: { cursor, reason: 'the cursor is past the end' },
      });
    }
    const lines = linesOf(rows);
    const last = rows.at(-1)?.position;
    const next = lines.length > 0 && last ? Number(last) : after;
    return {
      events: lines.map(parseLine),
      nextCursor: encodeJournalCursor(key, this.executionId, next),
      hasMore: next < total,
    };
  }

  async count(): Promise<number> {
    return (await this.#counter()).total;
  }

  async createRawStream(): Promise<Readable> {
    // Bounded now, read lazily; it does not check `closed`, so it outlives close() (the pool is
    // the caller's).
    const { total } = await this.#counter();
    const pages = this.#pages(total);
    return Readable.from(
      (async function* () {
        for await (const lines of pages) yield Buffer.from(`${lines.join('\n')}\n`);
      })(),
    );
  }

  async stats(): Promise<JournalStats> {
    const { total, bytes } = await this.#counter();
    return {
      totalEvents: total,
      lines: total,
      corruptLines: 0,
      tornLinesRepaired: 0,
      partialTailBytes: 0,
      byteLength: bytes,
      trimmedEvents: 0,
      indexRebuilds: 0,
      recreations: 0,
    };
  }

  async flush(): Promise<void> {
    // Every acknowledged append is already committed; only queued ones remain to wait for.
    await this.#queue.idle();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue.idle();
  }

  async #open(): Promise<string> {
    try {
      await ensureSchema(this.#pool, 'journal', JOURNAL_DDL);
      const key = randomBytes(24).toString('base64url');
      await this.#pool.query(OPEN_JOURNAL, [this.executionId, key]);
      const found = await this.#pool.query<{ cursor_key: string }>(SELECT_JOURNAL, [
        this.executionId,
      ]);
      this.#cursorKey = found.rows[0]?.cursor_key ?? '';
      if (this.#cursorKey === '') throw new Error('the journal row vanished while opening');
      return this.#cursorKey;
    } catch (error) {
      this.#opened = undefined;
      throw journalFailure('JOURNAL_OPEN_FAILED', 'open', this.executionId, error);
    }
  }

  async #key(): Promise<string> {
    if (this.#closed) throw closedError();
    return this.#ensureOpen();
  }

  async #ensureOpen(): Promise<string> {
    if (this.#cursorKey !== '') return this.#cursorKey;
    this.#opened ??= this.#open();
    return this.#opened;
  }

  async #write(lines: string[]): Promise<void> {
    try {
      // No closed check: appends queued before close() still complete.
      await this.#ensureOpen();
      const chunks: string[][] = [];
      for (let at = 0; at < lines.length; at += this.#chunkEvents) {
        chunks.push(lines.slice(at, at + this.#chunkEvents));
      }
      if (chunks.length === 1) {
        await insertLines(this.#pool, this.executionId, chunks[0] as string[]);
      } else {
        await inTransaction(this.#pool, async (client) => {
          for (const chunk of chunks) await insertLines(client, this.executionId, chunk);
        });
      }
    } catch (error) {
      if (JournalError.is(error)) throw error;
      throw journalFailure('JOURNAL_WRITE_FAILED', 'append to', this.executionId, error);
    }
  }

  async #counter(): Promise<{ total: number; bytes: number }> {
    const rows = await this.#query<{ total: string; bytes: string }>(
      'hw_journal_counter',
      SELECT_JOURNAL,
      [this.executionId],
    );
    return { total: Number(rows[0]?.total ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }

  /** Pages of lines with seq in (0, total], one query per page, in order. */
  async *#pages(total: number): AsyncGenerator<string[], void, undefined> {
    for (let after = 0; after < total; ) {
      const rows = await this.#query<EventRow>(
        'hw_journal_page',
        READ_PAGE,
        [this.executionId, after, total, this.#pageSize],
        false,
      );
      if (rows.length === 0) return;
      after = Number(rows.at(-1)?.position);
      yield linesOf(rows);
    }
  }

  async #query<T extends object>(
    name: string,
    text: string,
    values: unknown[],
    checkOpen = true,
  ): Promise<T[]> {
    if (checkOpen) await this.#key();
    try {
      return (await this.#pool.query<T>({ name, text, values })).rows;
    } catch (error) {
      throw journalFailure('JOURNAL_READ_FAILED', 'read', this.executionId, error);
    }
  }
}

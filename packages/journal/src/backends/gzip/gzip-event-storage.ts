import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { constants, createGunzip } from 'node:zlib';
import { errnoCode } from '@hankweave/durable-io';
import type { HankweaveEvent } from '@hankweave/types';
import { JournalError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../internal/cursor.js';
import { type SourceLine, splitLines } from '../../internal/line-splitter.js';
import { parseEventLine } from '../../internal/parse-line.js';
import type {
  EventPage,
  JournalBackend,
  JournalCapabilities,
  JournalStats,
  RecentEvents,
} from '../../journal-backend.js';
import { hashText } from '../file/journal-index.js';

/**
 * A journal archived with `gzip` (seed 003 "Archiving"), read with the same API and refused
 * appends. A gzip stream cannot be read backwards or from the middle, so every read decompresses
 * from the start (memory stays flat); counts are taken once at open, since an archive does not
 * change. A truncated archive yields the complete lines it still holds.
 */
export class GzipEventStorage implements JournalBackend {
  readonly capabilities: JournalCapabilities = {
    persistent: true,
    maxEvents: undefined,
    readOnly: true,
  };
  readonly path: string;
  #counts = { lines: 0, events: 0, corruptLines: 0, byteLength: 0, partialTailBytes: 0 };
  #epoch = '';
  #initialized: Promise<void> | undefined;
  #closed = false;

  constructor(path: string) {
    this.path = path;
  }

  initialize(): Promise<void> {
    this.#initialized ??= this.#count();
    return this.#initialized;
  }

  async append(): Promise<void> {
    throw new JournalError('JOURNAL_READ_ONLY', `Archived journal ${this.path} is read-only`, {
      details: { path: this.path },
    });
  }

  async readRecent(limit: number): Promise<RecentEvents> {
    const ring: HankweaveEvent[] = [];
    for await (const event of this.readAll()) {
      if (limit === 0) break;
      ring.push(event);
      if (ring.length > limit) ring.shift();
    }
    const total = this.#counts.events;
    return { events: ring, totalEvents: total, hasMore: total > ring.length };
  }

  async *readAll(): AsyncGenerator<HankweaveEvent, void, undefined> {
    for await (const line of this.#lines()) {
      const event = parseEventLine(line.text, line.lineNumber);
      if (event) yield event;
    }
  }

  async readAfter(cursor: string | null | undefined, limit: number): Promise<EventPage> {
    const position = cursor ? decodeCursor(cursor) : { line: 0, offset: 0, epoch: '' };
    await this.#guard();
    const bad = (reason: string) =>
      new JournalError('JOURNAL_BAD_CURSOR', `Journal cursor rejected: ${reason}`, {
        details: { cursor, reason },
      });
    if (position.line > 0 && position.epoch !== this.#epoch) {
      throw bad('the cursor belongs to another journal');
    }
    if (position.line > this.#counts.lines) throw bad('the cursor is past the end');
    const events: HankweaveEvent[] = [];
    let next = { line: position.line, offset: position.offset };
    let hasMore = false;
    let found = position.line === 0 && position.offset === 0;
    for await (const line of this.#lines()) {
      if (line.lineNumber === position.line) {
        if (line.offset !== position.offset) throw bad('offset does not match the line');
        found = true;
      }
      if (line.lineNumber < position.line) continue;
      const event = parseEventLine(line.text, line.lineNumber);
      if (event && events.length >= limit) {
        hasMore = true;
        break;
      }
      if (event) events.push(event);
      next = { line: line.lineNumber + 1, offset: line.offset + line.byteLength };
    }
    const atEnd = position.line === this.#counts.lines;
    if (!found && !(atEnd && position.offset === this.#counts.byteLength)) {
      throw bad('offset does not match the line');
    }
    return {
      events,
      nextCursor: encodeCursor({ ...next, epoch: next.line === 0 ? '' : this.#epoch }),
      hasMore,
    };
  }

  async count(): Promise<number> {
    await this.#guard();
    return this.#counts.events;
  }

  async createRawStream(): Promise<Readable> {
    await this.#guard();
    return this.#decompressed();
  }

  async stats(): Promise<JournalStats> {
    await this.#guard();
    return {
      totalEvents: this.#counts.events,
      lines: this.#counts.lines,
      corruptLines: this.#counts.corruptLines,
      tornLinesRepaired: 0,
      partialTailBytes: this.#counts.partialTailBytes,
      byteLength: this.#counts.byteLength,
      trimmedEvents: 0,
      indexRebuilds: 0,
      recreations: 0,
    };
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.#closed = true;
  }

  async #guard(): Promise<void> {
    if (this.#closed) {
      throw new JournalError('JOURNAL_CLOSED', `Journal ${this.path} is closed`, {
        details: { path: this.path },
      });
    }
    await this.initialize();
  }

  async *#lines(): AsyncGenerator<SourceLine, void, undefined> {
    await this.#guard();
    yield* this.#scan();
  }

  async *#scan(end?: Parameters<typeof splitLines>[2]): AsyncGenerator<SourceLine> {
    try {
      yield* splitLines(this.#decompressed(), { lineNumber: 0, offset: 0 }, end);
    } catch (error) {
      throw new JournalError('JOURNAL_READ_FAILED', `Cannot read archived journal ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    }
  }

  #decompressed(): Readable {
    // Z_SYNC_FLUSH lets a truncated archive end quietly after its last complete block.
    // pipeline, not pipe: a read error must reach (and end) the decompressed stream.
    return pipeline(
      createReadStream(this.path),
      createGunzip({ finishFlush: constants.Z_SYNC_FLUSH }),
      () => undefined,
    );
  }

  async #count(): Promise<void> {
    try {
      if (!(await stat(this.path)).isFile()) throw new Error('not a file');
    } catch (error) {
      throw new JournalError('JOURNAL_OPEN_FAILED', `Cannot open archived journal ${this.path}`, {
        cause: error,
        details: { path: this.path, errno: errnoCode(error) },
      });
    }
    const counts = { lines: 0, events: 0, corruptLines: 0, byteLength: 0, partialTailBytes: 0 };
    const lines = this.#scan((end) => {
      counts.partialTailBytes = end.partialBytes;
    });
    for await (const line of lines) {
      if (line.lineNumber === 0) this.#epoch = hashText(line.text);
      counts.lines += 1;
      counts.byteLength += line.byteLength;
      if (parseEventLine(line.text, line.lineNumber)) counts.events += 1;
      else counts.corruptLines += 1;
    }
    this.#counts = counts;
  }
}

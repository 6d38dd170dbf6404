import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoCode, type Fs, nodeFs } from '@hankweave/durable-io';
import { JournalError } from '../errors.js';

/** Where an execution's WebSocket log lives (seed 001). */
export const websocketLogPathOf = (hankweaveDir: string): string =>
  join(hankweaveDir, 'logs', 'websocket.log');

/** Options of {@link createWebSocketLogWriter}; give `hankweaveDir` or `path`. */
export interface WebSocketLogWriterOptions {
  /** The execution's `.hankweave` directory; the log is `{hankweaveDir}/logs/websocket.log`. */
  hankweaveDir?: string;
  /** The log file itself (wins over `hankweaveDir`). */
  path?: string;
  /** The file system to write through (default `nodeFs`, the real one). */
  fs?: Fs;
  /** The clock for `loggedAt` (tests pin it). */
  now?: () => Date;
}

/** Appends WebSocket traffic to `websocket.log`, one JSON entry per line. */
export interface WebSocketLogWriter {
  readonly path: string;
  /**
   * Logs a message a client sent (`direction: "in"`). Returns at once; the line is written in the
   * background, in call order.
   * @throws {JournalError} JOURNAL_INVALID when the message cannot be serialised to JSON.
   * @throws {JournalError} JOURNAL_CLOSED after `close()`.
   */
  logIn(message: unknown): void;
  /** Logs a message the server sent (`direction: "out"`); same contract as `logIn`. */
  logOut(message: unknown): void;
  /**
   * Resolves when everything logged so far is written. This is a debugging log: it is not
   * fsynced, and a failed write is reported here rather than to the (fire-and-forget) log calls.
   * @throws {JournalError} JOURNAL_WRITE_FAILED when a write failed since the last flush.
   */
  flush(): Promise<void>;
  /** Flushes and closes the file. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens (creating it and its directory) the WebSocket log for appending. Each entry is
 * `{loggedAt, direction, message, metadata: {size}}`, where `size` is the UTF-8 byte length of
 * the serialised message (seed 001 "websocket.log").
 * @throws {JournalError} JOURNAL_OPEN_FAILED when the file cannot be opened or created.
 * @throws {JournalError} JOURNAL_BAD_ARGUMENT when neither `hankweaveDir` nor `path` is given.
 */
export async function createWebSocketLogWriter(
  options: WebSocketLogWriterOptions,
): Promise<WebSocketLogWriter> {
  const path = options.path ?? (options.hankweaveDir && websocketLogPathOf(options.hankweaveDir));
  if (!path) {
    throw new JournalError('JOURNAL_BAD_ARGUMENT', 'The WebSocket log needs a path', {
      details: { option: 'path' },
    });
  }
  const fs = options.fs ?? nodeFs;
  let handle: FileHandle;
  try {
    await fs.mkdir(dirname(path), { recursive: true });
    handle = await fs.open(path, 'a');
  } catch (error) {
    throw new JournalError('JOURNAL_OPEN_FAILED', `Cannot open WebSocket log ${path}`, {
      cause: error,
      details: { path, errno: errnoCode(error) },
    });
  }
  return new FileWebSocketLogWriter(path, handle, options.now ?? (() => new Date()));
}

class FileWebSocketLogWriter implements WebSocketLogWriter {
  #pending: string[] = [];
  #draining: Promise<void> | undefined;
  #failure: unknown;
  #closed: Promise<void> | undefined;

  constructor(
    readonly path: string,
    readonly handle: FileHandle,
    readonly now: () => Date,
  ) {}

  logIn(message: unknown): void {
    this.#log('in', message);
  }

  logOut(message: unknown): void {
    this.#log('out', message);
  }

  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) {
      throw new JournalError('JOURNAL_WRITE_FAILED', `Cannot write WebSocket log ${this.path}`, {
        cause: failure,
        details: { path: this.path, errno: errnoCode(failure) },
      });
    }
  }

  close(): Promise<void> {
    this.#closed ??= this.flush().finally(() => this.handle.close());
    return this.#closed;
  }

  #log(direction: 'in' | 'out', message: unknown): void {
    if (this.#closed) throw new JournalError('JOURNAL_CLOSED', 'The WebSocket log is closed');
    let serialized: string | undefined;
    try {
      serialized = JSON.stringify(message);
    } catch (error) {
      throw new JournalError('JOURNAL_INVALID', 'The message cannot be serialised to JSON', {
        cause: error,
        details: { direction },
      });
    }
    if (serialized === undefined) {
      throw new JournalError('JOURNAL_INVALID', 'The message cannot be serialised to JSON', {
        details: { direction },
      });
    }
    // Built by hand so the message is serialised once, for both the line and its size.
    const size = Buffer.byteLength(serialized);
    const loggedAt = JSON.stringify(this.now().toISOString());
    this.#pending.push(
      `{"loggedAt":${loggedAt},"direction":"${direction}","message":${serialized},"metadata":{"size":${size}}}\n`,
    );
    this.#draining ??= this.#drain();
  }

  async #drain(): Promise<void> {
    await Promise.resolve();
    try {
      while (this.#pending.length > 0) {
        const text = this.#pending.join('');
        this.#pending = [];
        try {
          await this.handle.write(text);
        } catch (error) {
          this.#failure ??= error;
        }
      }
    } finally {
      this.#draining = undefined;
    }
  }
}

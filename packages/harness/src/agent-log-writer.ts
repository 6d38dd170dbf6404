import type { FileHandle } from 'node:fs/promises';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';
import { HarnessError } from './errors.js';
import { stderrLine, stdoutTextLine } from './log-lines/harness-log-lines.js';

/**
 * The error of a failed open or write of the agent log. The errno goes into the message as
 * `(ENOSPC: no space left on device)`, not only into `cause`: the message is what reaches the
 * failure reason (see `classifyFileSystemFailure`), and "the disk is full" must survive that trip.
 */
function logWriteFailure(verb: 'open' | 'write', path: string, cause: unknown): HarnessError {
  const errno = errnoCode(cause);
  const reason = cause instanceof Error ? cause.message : String(cause);
  const said = errno && !reason.startsWith(errno) ? `${errno}: ${reason}` : reason;
  return new HarnessError(
    'HARNESS_LOG_WRITE_FAILED',
    `Cannot ${verb} the agent log ${path} (${said})`,
    {
      cause,
      details: { path, ...(errno ? { errno } : {}) },
    },
  );
}

function hasOwnTimestamp(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, 'timestamp')
  );
}

/**
 * The log form of one stdout line of the agent: the line itself with a `timestamp` added after its
 * last field (the text is otherwise left byte for byte as the agent wrote it), or, when it is not a
 * JSON object, `{"type":"stdout","timestamp","text"}`. A line that has a timestamp keeps it.
 */
export function stampStdoutLine(line: string, timestamp: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return JSON.stringify(stdoutTextLine(text, timestamp));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return JSON.stringify(stdoutTextLine(text, timestamp));
  }
  const trimmed = text.trim();
  if (hasOwnTimestamp(parsed)) return trimmed;
  const stamp = `"timestamp":${JSON.stringify(timestamp)}`;
  const body = trimmed.slice(1, -1);
  return body.trim() === '' ? `{${stamp}}` : `{${body},${stamp}}`;
}

/** The log form of one stderr line: `{"type":"stderr","timestamp","message"}`. */
export function stderrLogLine(message: string, timestamp: string): string {
  return JSON.stringify(stderrLine(message, timestamp));
}

/**
 * Appends lines to an agent log, in order, one `write` per line. Appending (never truncating)
 * lets an extension or a retry add to the same log.
 */
export class AgentLogWriter {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens `path` for appending, creating its directory.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when it cannot be opened.
   */
  static async open(path: string): Promise<AgentLogWriter> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return new AgentLogWriter(path, await open(path, 'a'));
    } catch (cause) {
      throw logWriteFailure('open', path, cause);
    }
  }

  /**
   * Appends `line` and a newline. Resolves once written.
   * @throws {HarnessError} HARNESS_LOG_WRITE_FAILED when this or an earlier write failed.
   */
  write(line: string): Promise<void> {
    const next = this.chain.then(async () => {
      if (this.failure !== undefined) throw this.failure;
      try {
        await this.handle.write(`${line}\n`);
      } catch (cause) {
        this.failure = logWriteFailure('write', this.path, cause);
        throw this.failure;
      }
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Waits for pending writes, flushes to disk and closes. Never throws. */
  async close(): Promise<void> {
    await this.chain;
    await this.handle.sync().catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }
}

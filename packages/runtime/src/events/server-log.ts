import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** What the runtime logs through; pass your own to `createRuntime({logger})` to see it too. */
export interface RuntimeLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Writes `.hankweave/logs/server.log` in seed 001's format (`{ISO time} [LEVEL] message`) and
 * forwards each line to an optional user logger. Appends are synchronous: a log line must be on
 * disk before a crash that it may explain, and the volume is small.
 */
export function createServerLog(
  path: string,
  forward?: Partial<RuntimeLogger>,
  clock: () => Date = () => new Date(),
): RuntimeLogger {
  mkdirSync(dirname(path), { recursive: true });
  let failed = false;
  const write = (level: LogLevel, message: string) => {
    try {
      appendFileSync(
        path,
        `${clock().toISOString()} [${level}] ${message.replaceAll('\n', '\n    ')}\n`,
      );
    } catch (error) {
      // A log that cannot be written must not stop the run; the forward logger still sees every
      // line. It is told once (a full disk fails every line) which file is missing them, and why.
      if (failed) return;
      failed = true;
      const errno = errnoCode(error);
      forward?.warn?.(
        `Cannot write the server log ${path}${errno ? ` (${errno})` : ''}; its lines are missing from that file from now on`,
      );
    }
  };
  return {
    debug: (message) => {
      write('DEBUG', message);
      forward?.debug?.(message);
    },
    info: (message) => {
      write('INFO', message);
      forward?.info?.(message);
    },
    warn: (message) => {
      write('WARN', message);
      forward?.warn?.(message);
    },
    error: (message) => {
      write('ERROR', message);
      forward?.error?.(message);
    },
  };
}

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

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
  const write = (level: LogLevel, message: string) => {
    try {
      appendFileSync(
        path,
        `${clock().toISOString()} [${level}] ${message.replaceAll('\n', '\n    ')}\n`,
      );
    } catch {
      // A log that cannot be written must not stop the run; the forward logger still sees it.
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

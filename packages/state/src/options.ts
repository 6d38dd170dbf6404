import type { Fs } from '@hankweave/durable-io';

/** Where the store reports what it recovered from; all members optional. */
export interface StateLogger {
  warn(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
}

/** A logger that drops everything (the default of read-only helpers). */
export const silentLogger: StateLogger = { warn: () => {} };

/**
 * The default logger of writers: Node process warnings (`process.on('warning')`), so a recovery
 * from backup is never silent, without writing to the console from a library.
 */
export const processWarningLogger: StateLogger = {
  warn: (message) => process.emitWarning(message, { type: 'HankweaveStateWarning' }),
};

/** Options shared by `StateStore.open`, `readState` and the lock. */
export interface StateIoOptions {
  /** File system to use (default: durable-io's `nodeFs`, the real one). */
  fs?: Fs;
  /** Time source (default: `() => new Date()`); every timestamp the package writes comes from it. */
  clock?: () => Date;
  /** Where warnings go. */
  logger?: StateLogger;
}

/** Returns true when a process with this pid exists (default: `process.kill(pid, 0)`). */
export type IsPidAlive = (pid: number) => boolean;

/** Resolves true when a checkpoint (git commit) with this SHA exists. */
export type CheckpointExists = (sha: string) => Promise<boolean>;

import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port that was free on 127.0.0.1 a moment ago (the caller retries if it is taken since). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How a throwaway server process is stopped. */
export interface ThrowawayServerOptions {
  /** The server's process (or the wrapper that waits for it, such as `runuser`). */
  child: ChildProcess;
  /** The temporary directory it runs in: removed once it is stopped. */
  dir: string;
  /**
   * A politer first stop, and how long it may take before `stopSignal`: for a server that waits
   * for its clients to leave (Postgres's smart shutdown), so connections a test just closed end by
   * themselves instead of being cut (their client would see an error it no longer listens for).
   */
  drain?: { signal: NodeJS.Signals; ms: number };
  /** The signal of a graceful stop, and how long it may take before SIGKILL. */
  stopSignal: NodeJS.Signals;
  graceMs: number;
  /** Sent when the test process exits without a stop (default SIGKILL). */
  exitSignal?: NodeJS.Signals;
  /** Delivers a signal to the server (default: to `child`); for a server that is not the child. */
  signal?: (name: NodeJS.Signals) => void;
}

/**
 * The `stop()` of a throwaway test server: idempotent, the drain signal if any, the stop signal
 * if it is still running, then SIGKILL after the grace, then the directory removed. Until it is
 * called, a test process that ends without it (a crash, `process.exit`) signals the server and
 * removes the directory in its `exit` handler, so no server outlives its tests.
 */
export function throwawayServerStop(options: ThrowawayServerOptions): () => Promise<void> {
  const { child, dir } = options;
  const signal =
    options.signal ??
    ((name: NodeJS.Signals) => {
      child.kill(name);
    });
  // Only synchronous calls work in 'exit'.
  const onExit = (): void => {
    signal(options.exitSignal ?? 'SIGKILL');
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const stillRunningAfter = (ms: number) =>
          Promise.race([exited.then(() => false), sleep(ms, true, { ref: false })]);
        let running = true;
        if (options.drain !== undefined) {
          signal(options.drain.signal);
          running = await stillRunningAfter(options.drain.ms);
        }
        if (running) {
          signal(options.stopSignal);
          if (await stillRunningAfter(options.graceMs)) {
            signal('SIGKILL');
            child.kill('SIGKILL');
            await exited;
          }
        }
      }
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    })();
    return stopping;
  };
}

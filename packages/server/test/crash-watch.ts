/** What the process would have died of: unhandled rejections and uncaught exceptions. */
export interface CrashWatch {
  /** Everything caught so far, as `kind: message` lines (with the first stack frame). */
  readonly crashes: string[];
  /** Stops watching. */
  stop(): void;
}

/**
 * Records unhandled rejections and uncaught exceptions from now on, so a test can assert that a
 * sequence of messages crashed nothing. (vitest would report them too, but after the test and
 * without saying which input caused them.)
 */
export function watchCrashes(): CrashWatch {
  const crashes: string[] = [];
  const describe = (kind: string, error: unknown) => {
    const text =
      error instanceof Error
        ? `${error.message} ${(error.stack ?? '').split('\n').slice(1, 3).join(' ').trim()}`
        : String(error);
    crashes.push(`${kind}: ${text}`);
  };
  const onRejection = (reason: unknown) => describe('unhandledRejection', reason);
  const onException = (error: unknown) => describe('uncaughtException', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    crashes,
    stop() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}

/** Lets pending rejections surface: Node reports them after the microtask queue drains. */
export async function settle(ms = 20): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  await new Promise((resolve) => setImmediate(resolve));
}

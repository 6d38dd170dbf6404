/**
 * Waits `ms` milliseconds, or less when `signal` aborts. Never rejects: resolves `true` when the
 * full time passed and `false` when it was cut short (also when `signal` was already aborted), so
 * a backoff loop can stop quietly on shutdown.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

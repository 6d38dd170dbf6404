/**
 * Timestamps written by the file system come from a coarse clock (a jiffy on Linux, whole
 * seconds on some file systems), so a change made right after we looked can carry the very
 * mtime we recorded. Git calls such entries "racy" and re-checks them; we do the same for any
 * file, directory listing or .gitignore whose mtime falls within this window of our look.
 */
export const DEFAULT_RACY_WINDOW_MS = 2000;

/** Wall-clock now in nanoseconds, on the same clock (CLOCK_REALTIME) the file system uses. */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** True when an object with this mtime may still change without its stat changing. */
export function isRacy(mtimeNs: bigint, observedAtNs: bigint, windowNs: bigint): boolean {
  return mtimeNs + windowNs >= observedAtNs;
}

/** The mtime from which on an object observed at `observedAtNs` is racy (saves a BigInt add per file). */
export function racyThreshold(observedAtNs: bigint, windowNs: bigint): bigint {
  return observedAtNs - windowNs;
}

/** Milliseconds to nanoseconds, for option values. */
export function msToNs(ms: number): bigint {
  return BigInt(Math.max(0, Math.round(ms))) * 1_000_000n;
}

import * as fsp from 'node:fs/promises';
import type { CheckpointFs } from '../internal/io.js';

/** Which call of which operation should fail, and how. */
export interface FaultPlan {
  /** The fs method to break, e.g. `rename` or `open`. */
  operation: keyof CheckpointFs;
  /** Only calls whose first argument (a path) contains this string count. */
  pathIncludes?: string;
  /** Fail the nth matching call (1-based) and every later one when `sticky`. Default 1. */
  nth?: number;
  sticky?: boolean;
  /** The errno code to throw. Default `EIO`. */
  code?: string;
}

/** A fault-injecting `fs` plus a log of the calls it saw. */
export interface FaultyFs {
  fs: CheckpointFs;
  /** Number of matching calls so far. */
  readonly hits: number;
  /** True once the fault fired. */
  readonly fired: boolean;
}

/**
 * Wraps `node:fs/promises` so that one planned call fails with an errno-style error: for testing
 * that a failing disk becomes `CHECKPOINT_STORAGE_FAILED` and never a half-written repository.
 * Pass `faulty.fs` as `CheckpointEngine.open({ fs })`.
 */
export function createFaultyFs(plan: FaultPlan): FaultyFs {
  let hits = 0;
  let fired = false;
  const nth = plan.nth ?? 1;
  const target = fsp as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const wrapped: Record<string, unknown> = {};
  for (const name of Object.keys(fsp)) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    wrapped[name] = (...args: unknown[]) => {
      if (
        name === plan.operation &&
        (plan.pathIncludes === undefined || String(args[0]).includes(plan.pathIncludes))
      ) {
        hits++;
        if (hits === nth || (plan.sticky && hits > nth)) {
          fired = true;
          const error = Object.assign(
            new Error(`${plan.code ?? 'EIO'}: injected fault, ${name} ${String(args[0])}`),
            {
              code: plan.code ?? 'EIO',
            },
          );
          return Promise.reject(error);
        }
      }
      return original.apply(fsp, args);
    };
  }
  return {
    fs: wrapped as unknown as CheckpointFs,
    get hits() {
      return hits;
    },
    get fired() {
      return fired;
    },
  };
}

import { describe } from 'vitest';
import { describeApplyCases } from './cases/apply.js';
import { describeDetectCrashedRunsCases } from './cases/detect-crashed-runs.js';
import { describeFlushCases } from './cases/flush.js';
import { describeOpenCases } from './cases/open.js';
import { describeReadStateCases } from './cases/read-state.js';
import { describeRuntimeLockCases } from './cases/runtime-lock.js';
import { describeSaveCrashCases } from './cases/save-crash.js';
import type { StateStoreHarness } from './harness.js';

/**
 * Registers the conformance suite of the state store on one storage setup (a file system and a
 * way to get fresh directories). Run it from a `*.conformance.test.ts`:
 *
 * ```ts
 * describeStateStoreConformance({
 *   name: 'tmp dir',
 *   createDir: () => mkdtemp(join(tmpdir(), 'state-')),
 *   destroyDir: (dir) => rm(dir, { recursive: true, force: true }),
 *   capabilities: { faultInjection: true, posixModes: true },
 * });
 * ```
 *
 * Cases: open (recovery chain, leftovers, validation), apply (every invalid transition with its
 * code), flush (durability, backup, coalescing, write errors), the save sequence under a crash or
 * an I/O error at each step, detectCrashedRuns, readState, runtime.lock.
 */
export function describeStateStoreConformance(harness: StateStoreHarness): void {
  describe(`StateStore conformance: ${harness.name}`, () => {
    describeOpenCases(harness);
    describeApplyCases(harness);
    describeFlushCases(harness);
    describeSaveCrashCases(harness);
    describeDetectCrashedRunsCases(harness);
    describeReadStateCases(harness);
    describeRuntimeLockCases(harness);
  });
}

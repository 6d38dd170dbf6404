import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, type FaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { runtimeLockSchema } from '@hankweave/types';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acquireRuntimeLock,
  type RuntimeLockHandle,
  STATE_ERROR_CODES,
  StateError,
  StateStore,
  statePaths,
} from '../src/index.js';
import { makeTransition as t } from '../src/testing/transitions.js';

// runtime.lock under the fault-injecting fs at every step of acquire (fresh and taking over a
// dead holder), heartbeat, update and release: the lock on disk is always a whole lock or
// absent; a crashed holder's lock is always taken over by the next process; an I/O error fails
// with a coded error and leaves nothing that keeps the next attempt out.

const CRASHED_PID = 999_999_002;
const OTHER_PID = 999_999_003;
const DEAD = () => false;
const quiet = { warn: () => {} };
const dirs: { cleanup(): Promise<void> }[] = [];
/** Steps exercised per operation and mode, printed for RELIABILITY.md. */
const steps = new Map<string, number>();
afterAll(async () => {
  await Promise.all(dirs.map((dir) => dir.cleanup()));
  process.stdout.write(
    `[runtime.lock faults] steps per operation: ${[...steps].map(([name, n]) => `${name} ${n}`).join(', ')}\n`,
  );
});

const freshDir = async (): Promise<string> => {
  const dir = await makeTempDir('state-lock-faults-');
  dirs.push(dir);
  return join(dir.path, '.hankweave');
};

/** Asserts runtime.lock is absent or a whole lock; returns what it holds. */
const wholeOrAbsent = async (dir: string) => {
  let text: string;
  try {
    text = await readFile(statePaths(dir).lock, 'utf8');
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ENOENT');
    return undefined;
  }
  const parsed = runtimeLockSchema.safeParse(JSON.parse(text));
  expect(parsed.success, `torn runtime.lock: ${text}`).toBe(true);
  return parsed.data;
};

const expectCoded = (error: unknown): void => {
  expect(StateError.is(error), `not a StateError: ${String(error)}`).toBe(true);
  expect(STATE_ERROR_CODES).toContain((error as StateError).code);
};

interface Operation {
  name: string;
  /** Puts the directory in its starting shape with the real fs. */
  prepare(dir: string): Promise<void>;
  /** The operation under faults: `fs` is armed after `setUp` and before `run`. */
  setUp(dir: string, fs: FaultyFs): Promise<RuntimeLockHandle | undefined>;
  run(dir: string, fs: FaultyFs, handle: RuntimeLockHandle | undefined): Promise<unknown>;
}

const acquireUnderTest = (dir: string, fs: FaultyFs) =>
  acquireRuntimeLock(dir, {
    fs,
    pid: CRASHED_PID,
    runId: 'under-test',
    isPidAlive: DEAD,
    heartbeatIntervalMs: 0,
    logger: quiet,
  });

const held = async (dir: string, fs: FaultyFs) => acquireUnderTest(dir, fs);

const OPERATIONS: Operation[] = [
  {
    name: 'acquire (no lock yet)',
    prepare: async () => {},
    setUp: async () => undefined,
    run: (dir, fs) => acquireUnderTest(dir, fs),
  },
  {
    name: 'acquire (taking over a dead holder)',
    prepare: async (dir) => {
      await acquireRuntimeLock(dir, { pid: OTHER_PID, heartbeatIntervalMs: 0, logger: quiet });
    },
    setUp: async () => undefined,
    run: (dir, fs) => acquireUnderTest(dir, fs),
  },
  {
    name: 'heartbeat',
    prepare: async () => {},
    setUp: held,
    run: (_dir, _fs, handle) => (handle as RuntimeLockHandle).heartbeat(),
  },
  {
    name: 'update',
    prepare: async () => {},
    setUp: held,
    run: (_dir, _fs, handle) =>
      (handle as RuntimeLockHandle).update({ port: 54321, token: 'secret' }),
  },
  {
    name: 'release',
    prepare: async () => {},
    setUp: held,
    run: (_dir, _fs, handle) => (handle as RuntimeLockHandle).release(),
  },
];

/** Runs the operation with a fault at step k = 0, 1, 2, ... until a run never reaches it. */
const everyStep = async (
  operation: Operation,
  check: (run: {
    dir: string;
    fs: FaultyFs;
    handle: RuntimeLockHandle | undefined;
    outcome: { value: unknown } | { error: unknown };
  }) => Promise<void>,
  fault: (step: number) => Parameters<FaultyFs['arm']>[0],
): Promise<number> => {
  for (let step = 0; step < 200; step++) {
    const dir = await freshDir();
    await operation.prepare(dir);
    const fs = createFaultyFs({ trace: false });
    const handle = await operation.setUp(dir, fs);
    fs.arm(fault(step));
    const outcome = await operation.run(dir, fs, handle).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await check({ dir, fs, handle, outcome });
    if (!fs.faulted) return step;
  }
  throw new Error(`${operation.name} still reached the fault after 200 steps`);
};

describe('runtime.lock under faults at every step', () => {
  for (const operation of OPERATIONS) {
    it(`${operation.name}: a crash leaves a whole lock or none, and the next process takes it`, async () => {
      const count = await everyStep(
        operation,
        async ({ dir, outcome }) => {
          // A crash in best-effort cleanup (old temp files) may still let the call resolve.
          if ('error' in outcome) expectCoded(outcome.error);
          const before = await wholeOrAbsent(dir);
          // The crashed process is dead; the next one must get the lock, whatever it left.
          const next = await acquireRuntimeLock(dir, {
            pid: process.pid,
            isPidAlive: DEAD,
            heartbeatIntervalMs: 0,
            logger: quiet,
          });
          if (before !== undefined) {
            expect(next.previous).toMatchObject({ reason: 'dead', lock: { pid: before.pid } });
          }
          expect((await wholeOrAbsent(dir))?.lockId).toBe(next.lockId);
          expect(await next.release()).toBe(true);
        },
        (step) => ({ failAt: 'any', after: step, mode: 'crash' }),
      );
      steps.set(`${operation.name} (crash)`, count);
      expect(count).toBeGreaterThan(operation.name === 'release' ? 1 : 5);
    });

    for (const code of ['EIO', 'ENOSPC']) {
      it(`${operation.name}: ${code} fails with a coded error and the operation can be redone`, async () => {
        const count = await everyStep(
          operation,
          async ({ dir, fs, handle, outcome }) => {
            const onDisk = await wholeOrAbsent(dir);
            if ('value' in outcome) {
              if (operation.name === 'release') expect(onDisk).toBeUndefined();
              else expect(onDisk?.pid).toBe(CRASHED_PID);
              return;
            }
            expectCoded(outcome.error);
            expect((outcome.error as StateError).code).toBe('STATE_LOCK_FAILED');
            if (handle === undefined) {
              // A failed acquisition leaves no lock of its own behind: retrying works.
              expect(onDisk?.pid).not.toBe(CRASHED_PID);
              const retry = await acquireUnderTest(dir, fs);
              expect((await wholeOrAbsent(dir))?.lockId).toBe(retry.lockId);
              return;
            }
            // The handle is still held and its operation succeeds the second time.
            expect(handle.held).toBe(true);
            expect(await handle.verify()).toBe(true);
            await operation.run(dir, fs, handle);
            if (operation.name === 'release') expect(await wholeOrAbsent(dir)).toBeUndefined();
            else expect((await wholeOrAbsent(dir))?.lockId).toBe(handle.lockId);
          },
          (step) => ({ failAt: 'any', after: step, mode: 'throw', code }),
        );
        steps.set(`${operation.name} (${code})`, count);
      });
    }
  }
});

describe('a store fenced by runtime.lock', () => {
  it('reports an I/O error while checking the lock as a failed save, and saves next time', async () => {
    const dir = await freshDir();
    const fs = createFaultyFs({ trace: false });
    const lock = await acquireRuntimeLock(dir, { fs, heartbeatIntervalMs: 0, logger: quiet });
    const store = await StateStore.open(dir, { lock, logger: quiet });
    fs.arm({ failAt: 'readFile', pathIncludes: 'runtime.lock', code: 'EIO' });
    store.apply(t.runStarted('r1'));
    // The documented codes of flush(): a failed save, not the lock's own STATE_LOCK_FAILED.
    await expect(store.flush()).rejects.toMatchObject({ code: 'STATE_WRITE_FAILED' });
    expect(lock.held).toBe(true);
    await store.flush();
    expect((await StateStore.open(dir, { logger: quiet })).state).toEqual(store.state);
    await lock.release();
  });
});

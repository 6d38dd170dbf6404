import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { acquireRuntimeLock, readRuntimeLock } from '../../lock/acquire-runtime-lock.js';
import { type StateStoreHarness, useCaseContext } from '../harness.js';
import { makeTransition as t } from '../transitions.js';

const NOW = Date.parse('2025-01-04T12:00:00.000Z');
const DEAD_PID = 999_999_001;

/** `acquireRuntimeLock()` and its handle: seed 001 `runtime.lock`, reference §5.2. */
export const describeRuntimeLockCases = (harness: StateStoreHarness): void => {
  describe('runtime.lock', () => {
    const ctx = useCaseContext(harness);
    const acquire = (options: Parameters<typeof acquireRuntimeLock>[1] = {}) =>
      acquireRuntimeLock(ctx().dir, {
        fs: ctx().fs,
        heartbeatIntervalMs: 0,
        logger: ctx().logger,
        ...options,
      });

    it('writes pid, hostname, runId, startTime, lastHeartbeat and a lockId', async () => {
      const lock = await acquire({ runId: 'r1' });
      const onDisk = await readRuntimeLock(ctx().dir, { fs: ctx().fs });
      expect(onDisk).toEqual({
        pid: process.pid,
        hostname: hostname(),
        runId: 'r1',
        startTime: expect.any(String),
        lastHeartbeat: expect.any(String),
        lockId: lock.lockId,
        // Linux: when this process started, so that a reused pid is never taken for it.
        ...(process.platform === 'linux' && { processStartTime: expect.stringMatching(/\d+$/) }),
      });
      expect(lock.previous).toBeUndefined();
      await lock.release();
    });

    it('refuses while another live process holds it, naming its pid and run', async () => {
      const first = await acquire({ runId: 'r1', pid: 4242, isPidAlive: () => true });
      await expect(acquire({ isPidAlive: () => true })).rejects.toMatchObject({
        code: 'STATE_LOCKED',
        details: { pid: 4242, runId: 'r1' },
        message: expect.stringMatching(/pid 4242.*run r1/),
      });
      expect((await readRuntimeLock(ctx().dir, { fs: ctx().fs }))?.lockId).toBe(first.lockId);
      await first.release();
    });

    it('takes over a lock whose pid is dead and reports the previous holder', async () => {
      const old = await acquire({ runId: 'old', pid: DEAD_PID });
      const lock = await acquire({ runId: 'new', isPidAlive: (pid) => pid !== DEAD_PID });
      expect(lock.previous).toMatchObject({
        reason: 'dead',
        lock: { pid: DEAD_PID, runId: 'old' },
      });
      expect(await old.release()).toBe(false);
      expect((await readRuntimeLock(ctx().dir, { fs: ctx().fs }))?.lockId).toBe(lock.lockId);
      await lock.release();
    });

    it.runIf(process.platform === 'linux')(
      'takes over a lock whose pid lives on as another process (a reused pid)',
      async () => {
        // The holder died; its pid (here our own, certainly alive) now names another process,
        // started at another time than the lock records.
        const old = await acquire({ runId: 'old' });
        const onDisk = await readRuntimeLock(ctx().dir, { fs: ctx().fs });
        await ctx().fs.writeFile(
          `${ctx().dir}/runtime.lock`,
          JSON.stringify({ ...onDisk, processStartTime: 'another-boot:1' }),
        );
        const lock = await acquire({ runId: 'new' });
        expect(lock.previous).toMatchObject({ reason: 'dead', lock: { runId: 'old' } });
        expect(await old.release()).toBe(false);
        await lock.release();
      },
    );

    it('takes over a live holder whose heartbeat is older than 120 s', async () => {
      let now = NOW;
      const clock = () => new Date(now);
      const old = await acquire({ runId: 'old', clock, isPidAlive: () => true });
      now += 119_000;
      await expect(acquire({ clock, isPidAlive: () => true })).rejects.toMatchObject({
        code: 'STATE_LOCKED',
      });
      now += 2_000;
      const lock = await acquire({ clock, isPidAlive: () => true });
      expect(lock.previous).toMatchObject({ reason: 'stale', lock: { runId: 'old' } });
      expect(old.held).toBe(true);
      await expect(old.heartbeat()).rejects.toMatchObject({ code: 'STATE_LOCK_LOST' });
      expect(old.lost).toBe(true);
      await lock.release();
    });

    it('heartbeats keep a live holder fresh', async () => {
      let now = NOW;
      const clock = () => new Date(now);
      const lock = await acquire({ clock, isPidAlive: () => true });
      now += 100_000;
      await lock.heartbeat();
      now += 100_000;
      await expect(acquire({ clock, isPidAlive: () => true })).rejects.toMatchObject({
        code: 'STATE_LOCKED',
      });
      expect((await readRuntimeLock(ctx().dir, { fs: ctx().fs }))?.lastHeartbeat).toBe(
        new Date(NOW + 100_000).toISOString(),
      );
      await lock.release();
    });

    it('beats on its own timer', async () => {
      let now = NOW;
      const lock = await acquire({ clock: () => new Date(now), heartbeatIntervalMs: 5 });
      now += 60_000;
      await expect
        .poll(async () => (await readRuntimeLock(ctx().dir, { fs: ctx().fs }))?.lastHeartbeat, {
          timeout: 2000,
        })
        .toBe(new Date(NOW + 60_000).toISOString());
      await lock.release();
    });

    it('lets the holder add fields such as port and token, but not change its identity', async () => {
      const lock = await acquire();
      await lock.update({ port: 54321, token: 'secret', runId: 'r2', pid: 1, lockId: 'forged' });
      expect(await readRuntimeLock(ctx().dir, { fs: ctx().fs })).toMatchObject({
        port: 54321,
        token: 'secret',
        runId: 'r2',
        pid: process.pid,
        lockId: lock.lockId,
      });
      await lock.release();
    });

    it('releases only while the lockId on disk is its own', async () => {
      const lock = await acquire();
      expect(await lock.release()).toBe(true);
      expect(await readRuntimeLock(ctx().dir, { fs: ctx().fs })).toBeUndefined();
      expect(await lock.release()).toBe(false);
    });

    it('calls onLost and fences the state store once a successor took over', async () => {
      const lost: unknown[] = [];
      const old = await acquire({ pid: DEAD_PID, onLost: (onDisk) => lost.push(onDisk) });
      const store = await ctx().open({ lock: old });
      const successor = await acquire({ isPidAlive: (pid) => pid !== DEAD_PID });
      await expect(old.update({ port: 1 })).rejects.toMatchObject({ code: 'STATE_LOCK_LOST' });
      expect(lost).toEqual([expect.objectContaining({ lockId: successor.lockId })]);
      store.apply(t.runStarted('late'));
      await expect(store.flush()).rejects.toMatchObject({ code: 'STATE_LOCK_LOST' });
      expect(await ctx().read(ctx().paths.primary)).toBeUndefined();
      await successor.release();
    });

    it('refuses a lock file written moments ago that cannot be read yet, and takes over an old one', async () => {
      await ctx().write(ctx().paths.lock, '{"pid": 12');
      await expect(acquire()).rejects.toMatchObject({
        code: 'STATE_LOCKED',
        details: { status: 'unreadable' },
      });
      const lock = await acquire({ clock: () => new Date(Date.now() + 121_000) });
      expect(lock.previous).toEqual({ reason: 'stale', lock: undefined });
      await lock.release();
    });

    it('gets past a takeover marker left by a process that died taking over', async () => {
      await acquire({ pid: DEAD_PID });
      await ctx().write(`${ctx().paths.lock}.takeover`, String(DEAD_PID));
      const lock = await acquire({ isPidAlive: (pid) => pid !== DEAD_PID });
      expect(lock.previous).toMatchObject({ reason: 'dead', lock: { pid: DEAD_PID } });
      expect(await ctx().read(`${ctx().paths.lock}.takeover`)).toBeUndefined();
      await lock.release();
    });

    it('cleans up temp files left by processes killed while writing their lock', async () => {
      await ctx().write(`${ctx().paths.lock}.dead-writer.tmp`, '{"pid":');
      const lock = await acquire({ clock: () => new Date(Date.now() + 60_000) });
      expect((await ctx().list()).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      await lock.release();
    });

    it.runIf(harness.capabilities?.posixModes)(
      'is readable by its owner only (mode 0600)',
      async () => {
        const lock = await acquire();
        await lock.update({ token: 'secret' });
        expect((await stat(ctx().paths.lock)).mode & 0o777).toBe(0o600);
        await lock.release();
      },
    );

    it('lets exactly one of many concurrent contenders win', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => acquire({ isPidAlive: () => true })),
      );
      const winners = results.filter((result) => result.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected')
          expect(result.reason).toMatchObject({ code: 'STATE_LOCKED' });
      }
      await (
        winners[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquire>>>
      ).value.release();
    });
  });
};

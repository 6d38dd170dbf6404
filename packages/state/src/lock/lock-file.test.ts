import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { readRuntimeLock } from './acquire-runtime-lock.js';
import { type LockOnDisk, lockHolderStatus } from './lock-file.js';
import { isPidAlive } from './pid.js';

const NOW = Date.parse('2025-01-04T12:10:00.000Z');
const lock = (lastHeartbeat: string, pid = 7): LockOnDisk => ({
  text: '',
  mtimeMs: NOW,
  lock: { pid, runId: 'r', startTime: lastHeartbeat, lastHeartbeat },
});

describe('lockHolderStatus()', () => {
  it('is dead when the pid is gone, whatever the heartbeat', () => {
    expect(lockHolderStatus(lock('2025-01-04T12:09:59.000Z'), NOW, 120_000, () => false)).toBe(
      'dead',
    );
  });
  it('is stale when the heartbeat is older than the limit, live otherwise', () => {
    expect(lockHolderStatus(lock('2025-01-04T12:07:59.000Z'), NOW, 120_000, () => true)).toBe(
      'stale',
    );
    expect(lockHolderStatus(lock('2025-01-04T12:08:01.000Z'), NOW, 120_000, () => true)).toBe(
      'live',
    );
  });
  it("ignores the pid of another machine's lock: only its heartbeat counts", () => {
    const heartbeat = '2025-01-04T12:09:59.000Z';
    const fresh = lock(heartbeat);
    const elsewhere: LockOnDisk = {
      text: '',
      mtimeMs: NOW,
      lock: {
        pid: 7,
        runId: 'r',
        startTime: heartbeat,
        lastHeartbeat: heartbeat,
        hostname: 'worker-b',
      },
    };
    // pid 7 is not running here, but it is worker-b's pid: that lock is live until it goes stale.
    expect(lockHolderStatus(elsewhere, NOW, 120_000, () => false, 'worker-a')).toBe('live');
    expect(lockHolderStatus(elsewhere, NOW + 121_000, 120_000, () => false, 'worker-a')).toBe(
      'stale',
    );
    // The same host (or a lock without a hostname, as the original writes) checks the pid.
    expect(lockHolderStatus(elsewhere, NOW, 120_000, () => false, 'worker-b')).toBe('dead');
    expect(lockHolderStatus(fresh, NOW, 120_000, () => false, 'worker-a')).toBe('dead');
  });
  it('judges a file that does not parse by its mtime', () => {
    expect(lockHolderStatus({ text: '{', mtimeMs: NOW - 1000 }, NOW, 120_000, () => true)).toBe(
      'unreadable',
    );
    expect(lockHolderStatus({ text: '{', mtimeMs: NOW - 121_000 }, NOW, 120_000, () => true)).toBe(
      'stale',
    );
  });
});

describe('isPidAlive()', () => {
  it('sees this process, and never a pid that is not a positive integer', () => {
    expect(isPidAlive(process.pid)).toBe(true);
    expect(isPidAlive(0)).toBe(false);
    expect(isPidAlive(-1)).toBe(false);
    expect(isPidAlive(1.5)).toBe(false);
    expect(isPidAlive(2 ** 22 + 12_345)).toBe(false);
  });
});

describe('isPidAlive() with zombies', () => {
  it.runIf(process.platform === 'linux')(
    'counts a killed process its parent never reaped as dead',
    async () => {
      const { spawn } = await import('node:child_process');
      // `sleep 60` never reaps children: the background sleep becomes a zombie once killed.
      const parent = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 60'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const pid = Number(
        await new Promise<string>((resolve) =>
          parent.stdout?.once('data', (chunk) => resolve(String(chunk))),
        ),
      );
      try {
        expect(isPidAlive(pid)).toBe(true);
        // Only once the shell has exec'd `sleep 60` does nobody reap the child; before that the
        // shell would reap it and there would be no zombie to test.
        const { readFileSync } = await import('node:fs');
        await expect
          .poll(() => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim(), { timeout: 5000 })
          .toBe('sleep');
        process.kill(pid, 'SIGKILL');
        await expect.poll(() => isPidAlive(pid), { timeout: 2000 }).toBe(false);
        // Still a zombie: the kernel keeps the pid, which is what fooled kill(pid, 0).
        expect(() => process.kill(pid, 0)).not.toThrow();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});

describe('readRuntimeLock() on hostile files (found by the fuzz tests)', () => {
  afterEach(cleanupTempDirs);

  it('reads a bare pid of old runtimes only when it is a safe integer', async () => {
    const { path } = await makeTempDir('state-lock-');
    await writeFile(join(path, 'runtime.lock'), '4242');
    expect(await readRuntimeLock(path)).toMatchObject({ pid: 4242, runId: null });
    // Before: returned {pid: -9007199254740992}, which the lock schema refuses.
    await writeFile(join(path, 'runtime.lock'), '-9007199254740992');
    expect(await readRuntimeLock(path)).toBeUndefined();
  });

  it('fails with STATE_LOCK_FAILED, not a bare EISDIR, when runtime.lock cannot be read', async () => {
    const { path } = await makeTempDir('state-lock-');
    await mkdir(join(path, 'runtime.lock'));
    await expect(readRuntimeLock(path)).rejects.toMatchObject({
      code: 'STATE_LOCK_FAILED',
      details: { code: 'EISDIR' },
    });
  });
});

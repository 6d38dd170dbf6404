import { randomUUID } from 'node:crypto';
import type { Fs } from '@hankweave/durable-io';
import { writeFileAtomic } from '@hankweave/durable-io';
import { createFaultyFs } from '@hankweave/durable-io/testing';
import { acquireRuntimeLock, readState, StateStore } from '@hankweave/state';
import { makeTransition as t } from '@hankweave/state/testing';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '../../test/use-database.js';
import { createPgFs, PG_FS_METHODS } from './create-pg-fs.js';

const { url, pool } = await useDatabase('pg_fs');

let fs: Fs;
let root: string;
beforeEach(async () => {
  fs = createPgFs({ pool, namespace: 'fs-int' });
  root = `/t/${randomUUID()}`;
  await fs.mkdir(root, { recursive: true });
});

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  );

describe('createPgFs()', () => {
  describe('errors', () => {
    it('answers with the codes Linux gives', async () => {
      await fs.writeFile(`${root}/file`, 'x');
      await fs.mkdir(`${root}/dir/sub`, { recursive: true });
      await fs.writeFile(`${root}/dir/sub/inner`, 'y');
      const cases: [string, () => Promise<unknown>][] = [
        ['ENOENT', () => fs.readFile(`${root}/missing`)],
        ['ENOENT', () => fs.stat(`${root}/missing/deeper`)],
        ['ENOTDIR', () => fs.stat(`${root}/file/deeper`)],
        ['ENOTDIR', () => fs.readdir(`${root}/file`)],
        ['EEXIST', () => fs.mkdir(`${root}/dir`)],
        ['EEXIST', () => fs.open(`${root}/file`, 'wx')],
        ['EEXIST', () => fs.link(`${root}/file`, `${root}/dir/sub/inner`)],
        ['ENOENT', () => fs.mkdir(`${root}/no/parent`)],
        ['ENOENT', () => fs.open(`${root}/no/parent`, 'w')],
        ['ENOTDIR', () => fs.open(`${root}/file/child`, 'w')],
        ['EISDIR', () => fs.readFile(`${root}/dir`)],
        ['EISDIR', () => fs.open(`${root}/dir`, 'w')],
        ['EISDIR', () => fs.unlink(`${root}/dir`)],
        ['EISDIR', () => fs.rename(`${root}/file`, `${root}/dir`)],
        ['ENOTDIR', () => fs.rename(`${root}/dir`, `${root}/file`)],
        ['ENOTDIR', () => fs.rmdir(`${root}/file`)],
        ['ENOTEMPTY', () => fs.rmdir(`${root}/dir`)],
        ['EINVAL', () => fs.rename(`${root}/dir`, `${root}/dir/sub/moved`)],
        ['EPERM', () => fs.link(`${root}/dir`, `${root}/dir-link`)],
        ['EEXIST', () => fs.copyFile(`${root}/file`, `${root}/dir/sub/inner`, 1)],
        ['ERR_FS_EISDIR', () => fs.rm(`${root}/dir`)],
      ];
      for (const [expected, call] of cases)
        expect([expected, await code(call())]).toEqual([expected, expected]);
      expect(await fs.readFile(`${root}/dir/sub/inner`, 'utf8')).toBe('y');
    });

    it('refuses the synchronous methods with ENOTSUP, naming the method', () => {
      for (const method of ['readFileSync', 'readdirSync', 'statSync', 'lstatSync'] as const) {
        expect(() => (fs[method] as (path: string) => unknown)(`${root}/x`)).toThrow(
          expect.objectContaining({ code: 'ENOTSUP', message: expect.stringContaining(method) }),
        );
      }
    });

    it('turns a database failure into EIO, with the pg error as cause', async () => {
      const nowhere = new pg.Pool({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
      const broken = createPgFs({ pool: nowhere, namespace: 'x' });
      const error = await broken.readFile('/a').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'EIO', syscall: 'open', path: '/a' });
      expect((error as Error).cause).toBeInstanceOf(Error);
      await nowhere.end();
    });
  });

  describe('files and directories', () => {
    it('lists a directory with types, and stats files with size, mode and mtime', async () => {
      const clocked = createPgFs({ pool, namespace: 'fs-int', now: () => 1_700_000_000_000 });
      await clocked.writeFile(`${root}/b.txt`, 'héllo');
      await clocked.mkdir(`${root}/a`);
      const handle = await clocked.open(`${root}/secret`, 'wx', 0o600);
      await handle.close();
      const entries = await fs.readdir(root, { withFileTypes: true });
      expect(entries.map((entry) => [entry.name, entry.isDirectory(), entry.isFile()])).toEqual([
        ['a', true, false],
        ['b.txt', false, true],
        ['secret', false, true],
      ]);
      expect(await fs.readdir(root)).toEqual(['a', 'b.txt', 'secret']);
      const stats = await fs.stat(`${root}/b.txt`);
      expect(stats).toMatchObject({ size: 6, mtimeMs: 1_700_000_000_000 });
      expect(stats.isFile()).toBe(true);
      expect(stats.mode & 0o777).toBe(0o644);
      expect((await fs.stat(`${root}/secret`)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(root)).isDirectory()).toBe(true);
    });

    it('moves a directory with everything below it in one rename', async () => {
      await fs.mkdir(`${root}/from/deep/er`, { recursive: true });
      await fs.writeFile(`${root}/from/deep/er/file`, 'content');
      await fs.writeFile(`${root}/from-sibling`, 'stays');
      await fs.rename(`${root}/from`, `${root}/to`);
      expect(await fs.readFile(`${root}/to/deep/er/file`, 'utf8')).toBe('content');
      expect(await fs.readdir(`${root}/to/deep`)).toEqual(['er']);
      expect(await code(fs.stat(`${root}/from`))).toBe('ENOENT');
      expect(await fs.readFile(`${root}/from-sibling`, 'utf8')).toBe('stays');
    });

    it('keeps a handle on its file across a rename, as an inode would', async () => {
      const handle = await fs.open(`${root}/tmp`, 'w');
      await handle.writeFile('first ');
      await fs.rename(`${root}/tmp`, `${root}/final`);
      await handle.writeFile('second');
      await handle.sync();
      await handle.close();
      expect(await fs.readFile(`${root}/final`, 'utf8')).toBe('first second');
      await expect(handle.sync()).rejects.toMatchObject({ code: 'EBADF' });
    });

    it('gives link an independent copy, and keeps namespaces apart', async () => {
      await fs.writeFile(`${root}/a`, 'one');
      await fs.link(`${root}/a`, `${root}/b`);
      await fs.writeFile(`${root}/a`, 'two');
      expect(await fs.readFile(`${root}/b`, 'utf8')).toBe('one');
      const other = createPgFs({ pool, namespace: 'fs-int-other' });
      expect(await code(other.stat(`${root}/a`))).toBe('ENOENT');
    });

    it('writes at positions and appends like node:fs', async () => {
      const handle = await fs.open(`${root}/f`, 'w+');
      await handle.write('hello world');
      await handle.write(Buffer.from('W'), 0, 1, 6);
      await handle.write('!');
      await handle.truncate(13);
      expect(await handle.readFile('utf8')).toBe('hello World!\u0000');
      await handle.close();
      await fs.appendFile(`${root}/f`, 'end');
      expect((await fs.readFile(`${root}/f`)).subarray(-4).toString()).toBe('\u0000end');
    });
  });

  describe('atomicity and durability', () => {
    it('never shows a reader a missing or partial file while it is replaced 100 times', async () => {
      const path = `${root}/state.json`;
      await writeFileAtomic(path, JSON.stringify({ n: 0, pad: 'x'.repeat(5000) }), { fs });
      let stop = false;
      const seen: string[] = [];
      const reader = (async () => {
        while (!stop) seen.push(String(JSON.parse(await fs.readFile(path, 'utf8')).n));
      })();
      for (let n = 1; n <= 100; n++) {
        await writeFileAtomic(path, JSON.stringify({ n, pad: 'x'.repeat(5000) }), { fs });
      }
      stop = true;
      await reader;
      expect(seen.length).toBeGreaterThan(0);
      expect(JSON.parse(await fs.readFile(path, 'utf8')).n).toBe(100);
    });

    it('lets exactly one of 10 concurrent exclusive creators win', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => code(fs.open(`${root}/lock`, 'wx'))),
      );
      expect(results.filter((result) => result === 'resolved')).toHaveLength(1);
      expect(results.filter((result) => result === 'EEXIST')).toHaveLength(9);
    });

    it('has every resolved write visible to another connection at once', async () => {
      const otherPool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        const other = createPgFs({ pool: otherPool, namespace: 'fs-int' });
        const handle = await fs.open(`${root}/durable`, 'w');
        await handle.writeFile('committed');
        expect(await other.readFile(`${root}/durable`, 'utf8')).toBe('committed');
        await handle.close();
      } finally {
        await otherPool.end();
      }
    });
  });

  describe('what @hankweave/state calls', () => {
    it('uses only implemented methods, never a synchronous one, in a whole store lifecycle', async () => {
      const traced = createFaultyFs({ fs });
      const dir = `${root}/.hankweave`;
      const lock = await acquireRuntimeLock(dir, {
        fs: traced,
        runId: 'r1',
        heartbeatIntervalMs: 0,
      });
      await lock.heartbeat();
      const store = await StateStore.open(dir, { fs: traced, lock });
      store.detectCrashedRuns({ exceptRunId: 'r1' });
      store.apply(t.runStarted('r1'));
      await store.flush();
      store.apply(t.codonStarted('r1', 'research'));
      await store.flush();
      await readState(dir, { fs: traced });
      await store.close();
      await lock.release();
      const handleOps = ['write', 'writeFile', 'fsync', 'close', 'truncate', 'read'];
      const called = [...new Set(traced.trace.map((call) => call.op))].sort();
      expect(
        called.filter(
          (op) => !handleOps.includes(op) && !(PG_FS_METHODS as readonly string[]).includes(op),
        ),
      ).toEqual([]);
      expect(called.filter((op) => op.endsWith('Sync'))).toEqual([]);
      expect(called).toEqual(
        expect.arrayContaining([
          'close',
          'fsync',
          'link',
          'mkdir',
          'open',
          'readFile',
          'rename',
          'stat',
          'unlink',
          'writeFile',
        ]),
      );
      expect(traced.trace.some((call) => call.failed)).toBe(false);
    });
  });
});

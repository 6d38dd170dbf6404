import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import type { ExecutionMeta } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { readExecutionMeta, writeExecutionMeta } from './execution-meta.js';

afterEach(cleanupTempDirs);

const meta = (lastUsed: string): ExecutionMeta => ({
  version: '1.0.0',
  readOnlySourceDataPath: '/data',
  readOnlySourceResolvedDataPath: '/data',
  dataHash: 'abc123abc123',
  hankHash: 'def456def456',
  hankPath: '/hank/hank.json',
  linkType: 'symlink',
  createdAt: '2026-11-24T10:00:00.000Z',
  lastUsed,
});

describe('writeExecutionMeta() under crashes', () => {
  it('leaves the previous file or the new one at every step, never a torn one', async () => {
    const { path: dir } = await makeTempDir('meta-crash-');
    const path = join(dir, 'execution-meta.json');
    const before = meta('2026-11-24T10:00:00.000Z');
    const after = meta('2026-11-24T11:30:00.000Z');
    const seen = new Set<string>();
    for (let step = 0; ; step++) {
      await writeExecutionMeta(path, before);
      const fs = createFaultyFs({ failAt: 'any', after: step, mode: 'crash' });
      await writeExecutionMeta(path, after, { fs }).catch(() => undefined);
      // What a restarted process reads: one whole version, valid against the schema.
      const onDisk = await readExecutionMeta(path);
      expect([before, after]).toContainEqual(onDisk);
      seen.add(onDisk?.lastUsed === after.lastUsed ? 'new' : 'old');
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(onDisk);
      if (!fs.faulted) break; // the write got through every step without reaching the fault
      expect(fs.crashed).toBe(true);
    }
    expect(seen).toEqual(new Set(['old', 'new']));
  });

  it('is durable when it resolves: the file and its directory are fsynced', async () => {
    const { path: dir } = await makeTempDir('meta-sync-');
    const fs = createFaultyFs();
    await writeExecutionMeta(join(dir, 'execution-meta.json'), meta('2026-11-24T12:00:00.000Z'), {
      fs,
    });
    const synced = fs.trace
      .filter((call) => call.op === 'fsync')
      .map((call) => (call.path === dir ? 'directory' : 'file'));
    expect(synced).toEqual(['file', 'directory']);
    expect(fs.trace.findIndex((call) => call.op === 'rename')).toBeGreaterThan(
      fs.trace.findIndex((call) => call.op === 'fsync'),
    );
    expect(await readdir(dir)).toEqual(['execution-meta.json']);
  });
});

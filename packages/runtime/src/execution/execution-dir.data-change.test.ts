import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useLegacyExecution } from '../../test/legacy-execution-fixture.js';
import { hashDataSource } from './data-hash.js';
import { prepareExecution } from './execution-dir.js';
import { findNewestExecution } from './find-newest-execution.js';

let root: string;
let data: string;
let baseDir: string;
beforeEach(async () => {
  root = (await makeTempDir('exec-data-change-')).path;
  data = join(root, 'data');
  baseDir = join(root, 'managed');
  mkdirSync(join(data, 'notes'), { recursive: true });
  for (const name of ['a.txt', 'b.txt', 'c.txt', 'notes/d.md']) {
    writeFileSync(join(data, name), `content of ${name}`);
  }
});
afterEach(cleanupTempDirs);

const base = () => ({ dataPath: data, hankPath: join(root, 'hank.json'), hankHash: 'h1', baseDir });
const touch = (path: string) => {
  const future = new Date(Date.now() + 120_000);
  utimesSync(path, future, future);
};

describe('prepareExecution() when the data changes', () => {
  it('resumes the same execution when data files are only touched', async () => {
    const first = await prepareExecution({ ...base(), now: () => new Date(1000) });
    touch(join(data, 'a.txt'));
    touch(join(data, 'notes'));
    const again = await prepareExecution({ ...base(), now: () => new Date(2000) });
    expect(again.created).toBe(false);
    expect(again.layout.executionDir).toBe(first.layout.executionDir);
    expect(readdirSync(baseDir)).toHaveLength(1);
  });

  it('fails with RUNTIME_DATA_CHANGED naming the changed files, and creates nothing', async () => {
    const first = await prepareExecution({ ...base(), now: () => new Date(1000) });
    writeFileSync(join(data, 'a.txt'), 'edited');
    rmSync(join(data, 'c.txt'));
    writeFileSync(join(data, 'notes', 'e.md'), 'new');
    const failure = await prepareExecution(base()).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'RUNTIME_DATA_CHANGED',
      details: {
        dataPath: data,
        executionDir: first.layout.executionDir,
        createdAt: new Date(1000).toISOString(),
        changed: ['a.txt', 'notes/e.md (added)', 'c.txt (removed)'],
      },
    });
    const { message } = failure as Error;
    expect(message).toContain(`--execution ${first.layout.executionDir} --force`);
    expect(message).toContain('--start-new');
    expect(readdirSync(baseDir)).toEqual([first.layout.executionDir.slice(baseDir.length + 1)]);
  });

  it('resumes the changed data with executionDir + force, then by hash; startNew starts fresh', async () => {
    const first = await prepareExecution({ ...base(), now: () => new Date(1000) });
    writeFileSync(join(data, 'b.txt'), 'edited');
    const forced = await prepareExecution({
      ...base(),
      executionDir: first.layout.executionDir,
      force: true,
    });
    expect(forced.created).toBe(false);
    expect(forced.warnings.join()).toContain('relinking');
    expect(forced.meta.dataHash).toBe(hashDataSource(data));
    const next = await prepareExecution(base());
    expect(next.layout.executionDir).toBe(first.layout.executionDir);
    writeFileSync(join(data, 'b.txt'), 'edited again');
    const fresh = await prepareExecution({ ...base(), startNew: true });
    expect(fresh.created).toBe(true);
    expect(readdirSync(baseDir)).toHaveLength(2);
  });

  it('still refuses another data source in an explicit execution unless forced', async () => {
    const dir = join(root, 'explicit');
    await prepareExecution({ ...base(), executionDir: dir });
    writeFileSync(join(data, 'a.txt'), 'edited');
    await expect(prepareExecution({ ...base(), executionDir: dir })).rejects.toMatchObject({
      code: 'RUNTIME_DATA_MISMATCH',
    });
  });

  it('resumes the same data found at another path, and links it where it is now', async () => {
    const first = await prepareExecution(base());
    const moved = join(root, 'moved');
    cpSync(data, moved, { recursive: true });
    const again = await prepareExecution({ ...base(), dataPath: moved });
    expect(again.layout.executionDir).toBe(first.layout.executionDir);
    expect(readlinkSync(again.layout.dataLink)).toBe(moved);
    expect(again.meta.readOnlySourceResolvedDataPath).toBe(moved);
  });
});

describe('prepareExecution() on an execution recorded with data hash version 1', () => {
  it('resumes it for unchanged data and records the version-2 hash', async () => {
    const legacy = await useLegacyExecution();
    const resumed = await prepareExecution({
      ...base(),
      dataPath: legacy.data,
      baseDir: legacy.baseDir,
    });
    expect(resumed.created).toBe(false);
    expect(resumed.layout.executionDir).toBe(legacy.executionDir);
    const written = JSON.parse(readFileSync(resumed.layout.metaFile, 'utf8'));
    expect(written).toMatchObject({
      dataHash: hashDataSource(legacy.data),
      dataHashVersion: 2,
      createdAt: '2025-03-01T12:00:00.000Z',
    });
    touch(join(legacy.data, 'readme.txt'));
    const touched = await prepareExecution({
      ...base(),
      dataPath: legacy.data,
      baseDir: legacy.baseDir,
    });
    expect(touched.layout.executionDir).toBe(legacy.executionDir);
  });

  it('reports RUNTIME_DATA_CHANGED, without names, when its data changed', async () => {
    const legacy = await useLegacyExecution();
    writeFileSync(join(legacy.data, 'readme.txt'), 'Other data.\n');
    const failure = await prepareExecution({
      ...base(),
      dataPath: legacy.data,
      baseDir: legacy.baseDir,
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'RUNTIME_DATA_CHANGED',
      details: { executionDir: legacy.executionDir },
    });
    expect((failure as { details: object }).details).not.toHaveProperty('changed');
    expect(readdirSync(legacy.baseDir)).toHaveLength(1);
  });
});

describe('findNewestExecution()', () => {
  it('prefers the same hash at the same path, then the same hash, then the same path', async () => {
    const first = await prepareExecution({ ...base(), now: () => new Date(1000) });
    const copy = join(root, 'copy');
    cpSync(data, copy, { recursive: true });
    const ofCopy = await prepareExecution({
      ...base(),
      dataPath: copy,
      startNew: true,
      now: () => new Date(2000),
    });
    expect(await findNewestExecution(baseDir, data)).toMatchObject({
      executionDir: first.layout.executionDir,
      matchedBy: 'hash',
    });
    writeFileSync(join(copy, 'a.txt'), 'edited');
    expect(await findNewestExecution(baseDir, copy)).toMatchObject({
      executionDir: ofCopy.layout.executionDir,
      matchedBy: 'path',
    });
    rmSync(join(first.layout.executionDir, '.hankweave', 'execution-meta.json'));
    expect(await findNewestExecution(baseDir, data)).toMatchObject({
      executionDir: ofCopy.layout.executionDir,
      matchedBy: 'hash',
    });
    expect(existsSync(join(root, 'none'))).toBe(false);
    expect(await findNewestExecution(join(root, 'none'), data)).toBeUndefined();
  });
});

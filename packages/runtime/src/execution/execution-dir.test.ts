import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDirSync } from '@hankweave/durable-io/testing';
import { executionMetaSchema } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashDataSource } from './data-hash.js';
import { prepareExecution } from './execution-dir.js';

afterEach(cleanupTempDirs);

let root: string;
let data: string;
let baseDir: string;
beforeEach(() => {
  root = makeTempDirSync('exec-dir-').path;
  data = join(root, 'data');
  baseDir = join(root, 'managed');
  mkdirSync(data);
  writeFileSync(join(data, 'a.txt'), 'alpha');
});
const base = () => ({ dataPath: data, hankPath: join(root, 'hank.json'), hankHash: 'h1', baseDir });

describe('prepareExecution()', () => {
  afterEach(() => vi.restoreAllMocks());

  it("hashes the data within the hank's dataHashTimeLimit", async () => {
    // A clock that moves a second per reading: the scan of a three-level tree outlives a 1.5 s
    // limit (and is marked truncated), not the 5 s default, so the two hashes differ.
    mkdirSync(join(data, 'one', 'two'), { recursive: true });
    writeFileSync(join(data, 'one', 'two', 'deep.txt'), 'deep');
    let clock = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1000));
    const full = hashDataSource(data);
    const limited = (await prepareExecution({ ...base(), dataHashTimeLimitMs: 1500 })).layout;
    vi.restoreAllMocks();
    expect(limited.executionDir.slice(-6)).not.toBe(full.slice(0, 6));
    clock = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1000));
    const byDefault = (await prepareExecution({ ...base(), startNew: true })).layout;
    expect(byDefault.executionDir.slice(-6)).toBe(full.slice(0, 6));
  });

  it('creates a managed execution named {timestamp}-{random4}-{dataHash6} with the seed layout', async () => {
    const now = () => new Date(1736000000000);
    const { layout, meta, created } = await prepareExecution({
      ...base(),
      now,
      // As the runtime's lock does: .hankweave exists before the layout is written.
      beforeWrite: async (at) => {
        mkdirSync(at.hankweaveDir, { recursive: true });
      },
    });
    expect(created).toBe(true);
    const name = layout.executionDir.slice(baseDir.length + 1);
    expect(name).toMatch(
      new RegExp(`^1736000000000-[0-9a-f]{4}-${hashDataSource(data).slice(0, 6)}$`),
    );
    for (const path of [
      layout.agentRoot,
      layout.rigArchive,
      layout.eventsDir,
      layout.logsDir,
      layout.runsDir,
      layout.checkpointsDir,
      layout.sentinelOutputsDir,
      layout.sentinelHistoryDir,
    ]) {
      expect(existsSync(path), path).toBe(true);
    }
    expect(lstatSync(layout.dataLink).isSymbolicLink()).toBe(true);
    expect(readlinkSync(layout.dataLink)).toBe(data);
    const written = JSON.parse(readFileSync(layout.metaFile, 'utf8'));
    expect(Object.keys(written)).toEqual([
      'version',
      'readOnlySourceDataPath',
      'readOnlySourceResolvedDataPath',
      'dataHash',
      'hankHash',
      'hankPath',
      'linkType',
      'createdAt',
      'lastUsed',
      'dataHashVersion',
      'created',
      'hankSource',
    ]);
    expect(written.hankSource).toEqual({ kind: 'path', path: join(root, 'hank.json') });
    // hankweave made the directory and every layout name in it: prune may remove all of it.
    expect(written.created).toEqual({
      directory: true,
      entries: ['agentRoot', 'rigArchive', '.hankweave'],
    });
    expect(executionMetaSchema.parse(written)).toEqual(meta);
    expect(meta).toMatchObject({ linkType: 'symlink', createdAt: '2025-01-04T14:13:20.000Z' });
  });

  it('resumes the newest execution with the same data hash and keeps lastUsed current', async () => {
    const first = await prepareExecution({ ...base(), now: () => new Date(1000) });
    const second = await prepareExecution({ ...base(), hankHash: 'h2', now: () => new Date(5000) });
    expect(second.layout.executionDir).toBe(first.layout.executionDir);
    expect(second.created).toBe(false);
    expect(second.meta).toMatchObject({
      createdAt: new Date(1000).toISOString(),
      lastUsed: new Date(5000).toISOString(),
    });
    expect(second.warnings.join()).toContain('hank.json changed');
    const fresh = await prepareExecution({ ...base(), startNew: true, now: () => new Date(9000) });
    expect(fresh.layout.executionDir).not.toBe(first.layout.executionDir);
    const other = join(root, 'other-data');
    mkdirSync(other);
    writeFileSync(join(other, 'b.txt'), 'new data');
    const elsewhere = await prepareExecution({ ...base(), dataPath: other });
    expect(elsewhere.created).toBe(true);
  });

  it('records where the hank came from, and a malformed record reads as absent', async () => {
    const source = {
      kind: 'git' as const,
      url: 'https://example.com/team/hanks.git',
      ref: 'feature/review',
      commit: 'a'.repeat(40),
      subdir: 'review',
    };
    const { layout } = await prepareExecution({ ...base(), hankSource: source });
    const written = JSON.parse(readFileSync(layout.metaFile, 'utf8'));
    expect(written.hankSource).toEqual(source);
    expect(executionMetaSchema.parse(written).hankSource).toEqual(source);
    // A reader of a file whose record is broken still gets the rest of the meta.
    const broken = { ...written, hankSource: { kind: 'git', url: 42 } };
    expect(executionMetaSchema.parse(broken).hankSource).toBeUndefined();
    expect(executionMetaSchema.parse(broken).hankPath).toBe(written.hankPath);
  });

  it('keeps a recorded git source when the same hank.json resumes without one, not another', async () => {
    const source = {
      kind: 'git' as const,
      url: 'https://example.com/team/hanks.git',
      commit: 'b'.repeat(40),
    };
    await prepareExecution({ ...base(), hankSource: source });
    // A rollback or a resume by path opens the execution with no source: the record stays.
    const resumed = await prepareExecution({ ...base() });
    expect(resumed.meta.hankSource).toEqual(source);
    // Another hank.json: its own path.
    const other = await prepareExecution({ ...base(), hankPath: join(root, 'other.json') });
    expect(other.meta.hankSource).toEqual({ kind: 'path', path: join(root, 'other.json') });
  });

  it('copies the data with copyData and links a single file inside a directory', async () => {
    const copied = await prepareExecution({
      ...base(),
      copyData: true,
      executionDir: join(root, 'exec-copy'),
    });
    expect(copied.meta.linkType).toBe('copy');
    expect(readFileSync(join(copied.layout.dataLink, 'a.txt'), 'utf8')).toBe('alpha');
    const single = await prepareExecution({
      ...base(),
      dataPath: join(data, 'a.txt'),
      executionDir: join(root, 'exec-file'),
    });
    expect(readFileSync(join(single.layout.dataLink, 'a.txt'), 'utf8')).toBe('alpha');
  });

  it('refuses a new execution directly inside the managed directory', async () => {
    await expect(
      prepareExecution({ ...base(), executionDir: join(baseDir, 'mine') }),
    ).rejects.toMatchObject({ code: 'RUNTIME_RESERVED_LOCATION' });
  });

  it('needs force to start over in an explicit execution, and keeps a backup', async () => {
    const dir = join(root, 'exec');
    await prepareExecution({ ...base(), executionDir: dir });
    writeFileSync(join(dir, 'agentRoot', 'work.md'), 'x');
    await expect(
      prepareExecution({ ...base(), executionDir: dir, startNew: true }),
    ).rejects.toMatchObject({ code: 'RUNTIME_EXECUTION_EXISTS' });
    const again = await prepareExecution({
      ...base(),
      executionDir: dir,
      startNew: true,
      force: true,
    });
    expect(again.created).toBe(true);
    expect(again.warnings[0]).toContain('.hankweave.backup-');
    expect(existsSync(join(dir, 'agentRoot', 'work.md'))).toBe(false);
  });

  it('refuses changed data unless forced, and a non-empty foreign directory unless forced', async () => {
    const dir = join(root, 'exec');
    await prepareExecution({ ...base(), executionDir: dir });
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'z.txt'), 'zzz');
    await expect(
      prepareExecution({ ...base(), dataPath: other, executionDir: dir }),
    ).rejects.toMatchObject({ code: 'RUNTIME_DATA_MISMATCH' });
    const relinked = await prepareExecution({
      ...base(),
      dataPath: other,
      executionDir: dir,
      force: true,
    });
    expect(readlinkSync(relinked.layout.dataLink)).toBe(other);
    const foreign = join(root, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'x'), '1');
    await expect(prepareExecution({ ...base(), executionDir: foreign })).rejects.toMatchObject({
      code: 'RUNTIME_EXECUTION_NOT_EMPTY',
    });
    // A confirmation (the CLI's -y) is not enough for a directory of the user's own files.
    await expect(
      prepareExecution({ ...base(), executionDir: foreign, confirm: () => true }),
    ).rejects.toMatchObject({ code: 'RUNTIME_EXECUTION_NOT_EMPTY' });
    const forced = await prepareExecution({ ...base(), executionDir: foreign, force: true });
    // Only what hankweave made there is recorded as its own: never the directory, never `x`.
    expect(forced.meta.created).toEqual({
      directory: false,
      entries: ['agentRoot', 'rigArchive', '.hankweave'],
    });
    await expect(
      prepareExecution({ ...base(), executionDir: join(dir, 'agentRoot', 'nested') }),
    ).rejects.toMatchObject({ code: 'RUNTIME_NESTED_EXECUTION' });
  });
});

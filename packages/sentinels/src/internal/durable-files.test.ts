import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { appendDurably, repairTornTail } from './durable-files.js';

const fsyncedPaths = (fs: ReturnType<typeof createFaultyFs>) =>
  fs.trace.filter((call) => call.op === 'fsync').map((call) => call.path);

describe('appendDurably()', () => {
  it('fsyncs every append, and the directory only when it creates the file', async () => {
    await using dir = await makeTempDir('sentinels-append-');
    const fs = createFaultyFs();
    const path = join(dir.path, 'log.ndjson');
    await appendDurably(fs, path, 'a\n');
    expect(fsyncedPaths(fs)).toEqual([path, dir.path]);
    fs.clearTrace();
    await appendDurably(fs, path, 'b\n');
    expect(fsyncedPaths(fs)).toEqual([path]);
    expect(await readFile(path, 'utf8')).toBe('a\nb\n');
  });

  it('creates an empty file durably, and does nothing to an existing one', async () => {
    await using dir = await makeTempDir('sentinels-append-');
    const fs = createFaultyFs();
    const path = join(dir.path, 'log.md');
    await appendDurably(fs, path, '');
    expect(fsyncedPaths(fs)).toEqual([path, dir.path]);
    fs.clearTrace();
    await appendDurably(fs, path, '');
    expect(fsyncedPaths(fs)).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('');
  });
});

describe('repairTornTail()', () => {
  it('cuts a torn JSON line back to the last newline, keeping every whole line', async () => {
    await using dir = await makeTempDir('sentinels-tail-');
    const path = join(dir.path, 'log.ndjson');
    await writeFile(path, '{"n":1}\n{"n":2}\n{"n":');
    expect(await repairTornTail(createFaultyFs(), path, 'cut')).toContain('dropped');
    expect(await readFile(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('cuts a file that is one torn line to empty, across read chunks', async () => {
    await using dir = await makeTempDir('sentinels-tail-');
    const path = join(dir.path, 'log.ndjson');
    await writeFile(path, `{"big":"${'x'.repeat(200_000)}`);
    await repairTornTail(createFaultyFs(), path, 'cut');
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('ends a torn text record with a newline instead of guessing where it began', async () => {
    await using dir = await makeTempDir('sentinels-tail-');
    const path = join(dir.path, 'log.md');
    await writeFile(path, 'first\n\n---\nsecond, cut sh');
    expect(await repairTornTail(createFaultyFs(), path, 'terminate')).toContain('newline');
    expect(await readFile(path, 'utf8')).toBe('first\n\n---\nsecond, cut sh\n');
  });

  it('leaves whole, empty and missing files alone', async () => {
    await using dir = await makeTempDir('sentinels-tail-');
    await mkdir(dir.path, { recursive: true });
    const whole = join(dir.path, 'whole.ndjson');
    const empty = join(dir.path, 'empty.ndjson');
    await writeFile(whole, '{"n":1}\n');
    await writeFile(empty, '');
    const fs = createFaultyFs();
    expect(await repairTornTail(fs, whole, 'cut')).toBeUndefined();
    expect(await repairTornTail(fs, empty, 'cut')).toBeUndefined();
    expect(await repairTornTail(fs, join(dir.path, 'missing'), 'cut')).toBeUndefined();
    expect(await readFile(whole, 'utf8')).toBe('{"n":1}\n');
    expect(fs.calls('truncate') + fs.calls('write') + fs.calls('fsync')).toBe(0);
  });
});

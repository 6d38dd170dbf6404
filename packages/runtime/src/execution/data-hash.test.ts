import { mkdirSync, renameSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useLegacyExecution } from '../../test/legacy-execution-fixture.js';
import {
  DATA_HASH_FILE_CONTENT_LIMIT,
  DATA_HASH_SAMPLE_BYTES,
  hashDataSource,
  scanDataSource,
} from './data-hash.js';
import { hashDataSourceWithMtimes } from './data-hash-v1.js';

let data: string;
beforeEach(async () => {
  data = (await makeTempDir('data-hash-')).path;
  mkdirSync(join(data, 'sub'));
  writeFileSync(join(data, 'a.txt'), 'alpha');
  writeFileSync(join(data, 'sub', 'b.txt'), 'beta');
});
afterEach(cleanupTempDirs);

const later = (path: string) => {
  const future = new Date(Date.now() + 60_000);
  utimesSync(path, future, future);
};

describe('hashDataSource()', () => {
  it('is unchanged when files and folders are touched', () => {
    const before = hashDataSource(data);
    later(join(data, 'a.txt'));
    later(join(data, 'sub'));
    expect(hashDataSource(data)).toBe(before);
    const file = join(data, 'a.txt');
    const single = hashDataSource(file);
    later(file);
    expect(hashDataSource(file)).toBe(single);
  });

  it('changes when content changes at the same size, a name changes or a file is added', () => {
    const before = hashDataSource(data);
    writeFileSync(join(data, 'a.txt'), 'ALPHA');
    const edited = hashDataSource(data);
    expect(edited).not.toBe(before);
    renameSync(join(data, 'sub', 'b.txt'), join(data, 'sub', 'c.txt'));
    const renamed = hashDataSource(data);
    expect(renamed).not.toBe(edited);
    writeFileSync(join(data, 'new.txt'), '');
    expect(hashDataSource(data)).not.toBe(renamed);
  });

  it('skips dot names and build folders, as the original scan does', () => {
    const before = hashDataSource(data);
    writeFileSync(join(data, '.DS_Store'), 'x');
    mkdirSync(join(data, 'node_modules'));
    writeFileSync(join(data, 'node_modules', 'x.js'), 'x');
    expect(hashDataSource(data)).toBe(before);
  });

  it('samples a file over 1 MiB: its size, first and last 64 KiB count, its middle does not', () => {
    const big = join(data, 'big.bin');
    const bytes = Buffer.alloc(DATA_HASH_FILE_CONTENT_LIMIT + 4 * DATA_HASH_SAMPLE_BYTES, 7);
    writeFileSync(big, bytes);
    const before = hashDataSource(data);
    bytes[Math.floor(bytes.length / 2)] = 8;
    writeFileSync(big, bytes);
    expect(hashDataSource(data)).toBe(before);
    bytes[bytes.length - 1] = 8;
    writeFileSync(big, bytes);
    expect(hashDataSource(data)).not.toBe(before);
    expect(scanDataSource(data).entries.find(([name]) => name === 'big.bin')?.[1]).toMatch(
      /^f:\d+:s/,
    );
  });

  it('records a symlink by its target and the content of the file it points to', () => {
    symlinkSync(join(data, 'a.txt'), join(data, 'link'));
    const before = hashDataSource(data);
    writeFileSync(join(data, 'a.txt'), 'other');
    const edited = hashDataSource(data);
    expect(edited).not.toBe(before);
    unlinkSync(join(data, 'link'));
    symlinkSync(join(data, 'sub', 'b.txt'), join(data, 'link'));
    expect(hashDataSource(data)).not.toBe(edited);
  });

  it('tells two nearly empty directories apart by their path', async () => {
    const other = (await makeTempDir('data-hash-other-')).path;
    mkdirSync(join(other, 'sub'));
    writeFileSync(join(other, 'a.txt'), 'alpha');
    writeFileSync(join(other, 'sub', 'b.txt'), 'beta');
    expect(hashDataSource(other)).not.toBe(hashDataSource(data));
  });
});

describe('hashDataSourceWithMtimes()', () => {
  it("equals the original runtime's version-1 hash of the legacy fixture", async () => {
    // Both values were computed by the original function before it was renamed.
    const legacy = await useLegacyExecution();
    expect(legacy.recordedHash).toBe('e99acedc3416');
    expect(hashDataSourceWithMtimes(legacy.data)).toBe(legacy.recordedHash);
    expect(hashDataSourceWithMtimes(join(legacy.data, 'cities.csv'))).toBe('79ba219783d3');
  });

  it('changes when a file is touched (why version 2 exists)', () => {
    const before = hashDataSourceWithMtimes(data);
    later(join(data, 'a.txt'));
    expect(hashDataSourceWithMtimes(data)).not.toBe(before);
  });
});
